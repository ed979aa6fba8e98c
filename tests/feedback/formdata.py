"""Reads a rendered HTML form into POST data, so admin tests post what a browser would."""

from html.parser import HTMLParser


class _FormParser(HTMLParser):
    def __init__(self, form_id):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = form_id is None
        self.data = {}
        self._textarea = None
        self._select = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and self.form_id is not None and attrs.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text")
            if kind in ("submit", "button", "image", "file"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.data.setdefault(name, []).append(attrs.get("value", "on"))
                return
            self.data.setdefault(name, []).append(attrs.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.data.setdefault(name, []).append("")
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in attrs:
            self.data[self._select].append(attrs.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None
        elif tag == "form" and self.inside and self.form_id is not None:
            self.inside = False

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea][-1] += data


def form_data(html: str, form_id: str | None = None) -> dict:
    parser = _FormParser(form_id)
    parser.feed(html)
    # A textarea's first newline after the tag is not part of its value.
    return {
        name: [v[1:] if v.startswith("\n") else v for v in values]
        if len(values) != 1
        else (values[0][1:] if values[0].startswith("\n") else values[0])
        for name, values in parser.data.items()
    }
