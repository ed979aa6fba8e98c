"""Spielegruppen pages and actions. Thin: ``services`` holds the rules, ``identity`` says who asks.

Visibility: a listed group (public, not hidden) shows its name, region, description,
games and size to everyone; members, nights and links only to members. A private or
hidden group is a 404 for everyone who is not a member. Every page that shows a secret
link or member data is ``noindex`` and never stored by shared caches.
"""

from functools import wraps

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.timezone import localtime
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from games import clock
from groups import ical, identity, selectors, services
from groups.forms import (
    DURATION_CHOICES,
    GroupForm,
    JoinForm,
    NewGroupForm,
    NewNightForm,
    NightForm,
    OptionForm,
)
from groups.models import Answer, DateOption, GameNight, Member, PlayGroup
from groups.services import Refused
from sleeves.calculation import parse_selection
from sleeves.views import FinderState


def _private(response):
    response["X-Robots-Tag"] = "noindex, nofollow"
    patch_cache_control(response, private=True, no_store=True)
    return response


def _refused(request, group, error: Refused, status=403):
    context = {"group": group, "reason": str(error)}
    return _private(render(request, "groups/refused.html", context, status=status))


def _group(request, slug):
    """The group and the asking member; 404 when the asker may not see the group at all."""
    group = get_object_or_404(PlayGroup, slug=slug)
    member = identity.current_member(request, group)
    if member is None and not group.is_listed:
        raise Http404("Diese Spielegruppe gibt es nicht.")
    return group, member


def members_only(view):
    """Pages and actions for members: anyone else gets a 404 (nothing to learn there)."""

    @wraps(view)
    def wrapped(request, slug, *args, **kwargs):
        group, member = _group(request, slug)
        if member is None:
            raise Http404("Diese Seite sehen nur Mitglieder der Gruppe.")
        try:
            return view(request, group, member, *args, **kwargs)
        except Refused as error:
            return _refused(request, group, error)

    return wrapped


def _night(group, night_id) -> GameNight:
    return get_object_or_404(
        GameNight.objects.select_related("fixed_option", "group"), group=group, pk=night_id
    )


# Listing and founding ------------------------------------------------------


@require_safe
def group_list(request):
    return render(
        request,
        "groups/list.html",
        {"groups": selectors.listed_groups(), "mine": identity.memberships(request)},
    )


@require_http_methods(["GET", "POST"])
def create(request):
    form = NewGroupForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        reason = services.creation_refused(request)
        if reason:
            form.add_error(None, reason)
            status = 429
        else:
            data = dict(form.cleaned_data)
            group, founder = services.create_group(
                user=request.user,
                founder_name=data.pop("founder_name"),
                games=data.pop("games"),
                **data,
            )
            response = redirect(group.get_absolute_url() + "?neu=1")
            return identity.remember(request, response, founder)
    return _private(render(request, "groups/create.html", {"form": form}, status=status))


# A group's page ------------------------------------------------------------


@require_safe
def detail(request, slug):
    group, member = _group(request, slug)
    games = [game for game in group.games.all() if game.is_published]
    context = {"group": group, "member": member, "games": games}
    if member is not None:
        now = clock.now()
        context.update(
            members=list(group.members.all()),
            upcoming=selectors.upcoming_nights(group, now),
            past=selectors.past_nights(group, now)[:10],
            calendar_url=request.build_absolute_uri(group.get_calendar_url()),
            personal_url=request.build_absolute_uri(member.get_personal_url()),
            is_new="neu" in request.GET,
            welcome="willkommen" in request.GET,
        )
        if member.can_manage:
            context["invite_url"] = request.build_absolute_uri(group.get_invite_url())
        if member.is_founder:
            context["successor"] = services.successor(group, leaving=member)
    else:
        context["size"] = group.members.count()
    response = render(request, "groups/detail.html", context)
    if member is not None or not group.is_listed:
        _private(response)
    return response


@require_http_methods(["GET", "POST"])
@members_only
def edit(request, group, member):
    if not member.can_manage:
        raise Refused("Das dürfen nur die Organisatoren der Gruppe.")
    form = GroupForm(request.POST or None, instance=group)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        # The form already wrote the fields onto the instance; save through the service.
        services.update_group(member, group, games=data.pop("games"), **data)
        return redirect(group.get_absolute_url())
    if request.method == "POST":
        group.refresh_from_db()
    return _private(render(request, "groups/edit.html", {"group": group, "form": form}))


@require_http_methods(["GET", "POST"])
def join(request, slug, token):
    group = get_object_or_404(PlayGroup, slug=slug, invite_token=token, is_hidden=False)
    member = identity.current_member(request, group)
    if member is not None:
        return redirect(group.get_absolute_url())
    initial = {}
    if request.user.is_authenticated:
        initial["name"] = request.user.get_short_name() or request.user.get_username()
        if "@" in initial["name"]:  # never suggest an e-mail address as the visible name
            initial["name"] = initial["name"].split("@")[0]
    form = JoinForm(request.POST or None, initial=initial)
    context = {
        "group": group,
        "form": form,
        "size": group.members.count(),
        "games": [game for game in group.games.all() if game.is_published],
    }
    if request.method == "POST" and form.is_valid():
        try:
            member = services.join(request, group, name=form.cleaned_data["name"])
        except Refused as error:
            return _refused(request, group, error, status=429)
        response = redirect(group.get_absolute_url() + "?willkommen=1")
        return identity.remember(request, response, member)
    return _private(render(request, "groups/join.html", context))


@require_safe
def personal_link(request, slug, token):
    """A guest's personal link: remembers the membership in this browser."""
    member = get_object_or_404(
        Member.objects.select_related("group"), group__slug=slug, token=token
    )
    response = _private(redirect(member.group.get_absolute_url()))
    return identity.remember(request, response, member)


@require_POST
@members_only
def renew_invite(request, group, member):
    services.renew_invite(member, group)
    return redirect(group.get_absolute_url() + "#einladen")


@require_POST
@members_only
def renew_calendar(request, group, member):
    services.renew_calendar(member, group)
    return redirect(group.get_absolute_url() + "#kalender")


@require_POST
@members_only
def set_role(request, group, member, member_id):
    target = get_object_or_404(Member, group=group, pk=member_id)
    services.set_organiser(member, target, request.POST.get("organisator") == "1")
    return redirect(group.get_absolute_url() + "#mitglieder")


@require_POST
@members_only
def remove_member(request, group, member, member_id):
    target = get_object_or_404(Member, group=group, pk=member_id)
    services.remove_member(member, target)
    return redirect(group.get_absolute_url() + "#mitglieder")


@require_POST
@members_only
def rename(request, group, member):
    form = JoinForm(request.POST)
    if not form.is_valid():
        raise Refused(form.errors["name"][0])
    services.rename(member, form.cleaned_data["name"])
    return redirect(group.get_absolute_url() + "#mitglieder")


@require_POST
@members_only
def leave(request, group, member):
    services.remove_member(member, member)
    response = redirect(reverse("groups:list") + "?ausgetreten=1")
    return identity.forget(request, response, member)


@require_POST
@members_only
def delete(request, group, member):
    if request.POST.get("bestaetigt") != group.slug:
        raise Refused("Zum Löschen bitte die Adresse der Gruppe genau eintippen.")
    services.delete_group(member, group)
    return redirect(reverse("groups:list") + "?geloescht=1")


@require_safe
def calendar_feed(request, slug, token):
    """The group's subscription: the secret token is the only key (calendar apps send no
    cookies). A renewed token ends old subscriptions."""
    group = get_object_or_404(PlayGroup, slug=slug, calendar_token=token)
    nights = (
        GameNight.objects.filter(group=group, fixed_option__isnull=False)
        .select_related("fixed_option", "group")
        .prefetch_related("games")
        .order_by("fixed_option__starts_at")
    )
    body = ical.group_calendar(
        group,
        nights,
        lambda night: request.build_absolute_uri(night.get_absolute_url()),
        request.get_host().split(":")[0],
        request.build_absolute_uri,
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{group.slug}.ics"'
    return _private(response)


# Game nights ---------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@members_only
def night_create(request, group, member):
    if not member.can_manage:
        raise Refused("Spieleabende planen die Organisatoren der Gruppe.")
    form = NewNightForm(request.POST or None, initial={"games": group.games.all()})
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        fields = {key: data[key] for key in ("title", "place", "note", "duration_minutes")}
        try:
            night = services.create_night(
                member, group, starts=form.starts(), games=data["games"], **fields
            )
        except Refused as error:
            form.add_error(None, str(error))
        else:
            return redirect(night.get_absolute_url())
    context = {"group": group, "form": form}
    return _private(render(request, "groups/night_form.html", context))


@require_http_methods(["GET", "POST"])
@members_only
def night_edit(request, group, member, night):
    night = _night(group, night)
    if not member.can_manage:
        raise Refused("Das dürfen nur die Organisatoren der Gruppe.")
    form = NightForm(request.POST or None, instance=night)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        services.update_night(member, night, games=data.pop("games"), **data)
        return redirect(night.get_absolute_url())
    context = {"group": group, "night": night, "form": form}
    return _private(render(request, "groups/night_form.html", context))


def _poll(night, member):
    """One row per option: counts, names per answer and the asker's own answer."""
    options = list(night.options.prefetch_related("answers__member"))
    rows = []
    for option in options:
        answers = list(option.answers.all())
        by_value = {value: [] for value in Answer.Value.values}
        mine = ""
        for item in answers:
            by_value[item.value].append(item.member.name)
            if item.member_id == member.pk:
                mine = item.value
        rows.append(
            {
                "option": option,
                "yes": sorted(by_value["ja"], key=str.casefold),
                "maybe": sorted(by_value["vielleicht"], key=str.casefold),
                "no": sorted(by_value["nein"], key=str.casefold),
                "mine": mine,
                "score": (len(by_value["ja"]), len(by_value["vielleicht"])),
            }
        )
    best = max((row["score"] for row in rows), default=(0, 0))
    for row in rows:
        row["is_best"] = best != (0, 0) and row["score"] == best
    return rows


def _night_context(request, group, member, night) -> dict:
    games = [game for game in night.games.all() if game.is_published]
    context = {
        "group": group,
        "member": member,
        "night": night,
        "games": games,
        "answer_values": Answer.Value.choices,
        "members_total": group.members.count(),
        "duration_label": dict(DURATION_CHOICES).get(
            night.duration_minutes, f"{night.duration_minutes} Minuten"
        ),
    }
    if games:
        selection = parse_selection([",".join(game.slug for game in games)])
        context["sleeve_url"] = FinderState(selection).url()
    if night.fixed_option_id:
        rsvps = list(night.rsvps.select_related("member"))
        context.update(
            coming=sorted((r.member.name for r in rsvps if r.attending), key=str.casefold),
            not_coming=sorted((r.member.name for r in rsvps if not r.attending), key=str.casefold),
            my_rsvp=next((r for r in rsvps if r.member_id == member.pk), None),
            is_past=night.ends_at < clock.now(),
        )
    else:
        context["poll"] = _poll(night, member)
        answered = set(
            Answer.objects.filter(option__night=night).values_list("member_id", flat=True)
        )
        context["not_answered"] = sorted(
            (m.name for m in group.members.all() if m.pk not in answered), key=str.casefold
        )
        if member.can_manage:
            context["option_form"] = OptionForm()
    return context


@require_safe
@vary_on_headers("HX-Request")
@members_only
def night(request, group, member, night):
    night = _night(group, night)
    return _private(
        render(request, "groups/night.html", _night_context(request, group, member, night))
    )


@require_POST
@vary_on_headers("HX-Request")
@members_only
def answer(request, group, member, night, option):
    night = _night(group, night)
    option = get_object_or_404(DateOption, night=night, pk=option)
    services.answer(member, option, request.POST.get("antwort", ""))
    if request.htmx:
        context = _night_context(request, group, member, night)
        context.update(
            answered_option=option.pk,
            answered_value=request.POST["antwort"],
            answered_when=option.starts_at,
        )
        return _private(render(request, "groups/night.html#poll-body", context))
    return redirect(f"{night.get_absolute_url()}#termin-{option.pk}")


@require_POST
@members_only
def fix(request, group, member, night):
    night = _night(group, night)
    raw = request.POST.get("termin", "")
    if raw == "offen":
        option = None
    else:
        option = DateOption.objects.filter(night=night, pk=raw if raw.isdigit() else 0).first()
        if option is None:
            raise Refused("Bitte wähle einen der vorgeschlagenen Termine.")
    services.fix_date(member, night, option)
    return redirect(night.get_absolute_url())


@require_POST
@members_only
def add_option(request, group, member, night):
    night = _night(group, night)
    form = OptionForm(request.POST)
    if not form.is_valid():
        raise Refused(form.errors["termin"][0])
    option = services.add_option(member, night, form.cleaned_data["termin"])
    return redirect(f"{night.get_absolute_url()}#termin-{option.pk}")


@require_POST
@vary_on_headers("HX-Request")
@members_only
def rsvp(request, group, member, night):
    night = _night(group, night)
    choice = request.POST.get("zusage")
    if choice not in ("ja", "nein"):
        raise Refused("Bitte sag zu oder ab.")
    services.rsvp(member, night, choice == "ja")
    if request.htmx:
        context = _night_context(request, group, member, night)
        context["answered"] = True
        return _private(render(request, "groups/night.html#rsvp", context))
    return redirect(f"{night.get_absolute_url()}#zusage")


@require_POST
@members_only
def night_delete(request, group, member, night):
    night = _night(group, night)
    services.delete_night(member, night)
    return redirect(group.get_absolute_url())


@require_safe
@members_only
def night_ics(request, group, member, night):
    night = _night(group, night)
    if not night.fixed_option_id:
        raise Http404("Für diesen Abend steht noch kein Termin fest.")
    body = ical.night_calendar(
        night,
        request.build_absolute_uri(night.get_absolute_url()),
        request.get_host().split(":")[0],
        request.build_absolute_uri,
    )
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    filename = f"spieleabend-{localtime(night.fixed_option.starts_at):%Y-%m-%d}.ics"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return _private(response)
