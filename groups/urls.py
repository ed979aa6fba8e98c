"""Spielegruppen under /spielegruppen/; a night under …/<slug>/abende/<id>/."""

from django.urls import path

from groups import views

app_name = "groups"

GROUP = "spielegruppen/<slug:slug>/"
NIGHT = GROUP + "abende/<int:night>/"

urlpatterns = [
    path("spielegruppen/", views.group_list, name="list"),
    path("spielegruppen/neu/", views.create, name="create"),
    path(GROUP, views.detail, name="detail"),
    path(GROUP + "bearbeiten/", views.edit, name="edit"),
    path(GROUP + "einladung/<slug:token>/", views.join, name="join"),
    path(GROUP + "einladung-erneuern/", views.renew_invite, name="renew_invite"),
    path(GROUP + "kalender-erneuern/", views.renew_calendar, name="renew_calendar"),
    path(GROUP + "ich/<slug:token>/", views.personal_link, name="me"),
    path(GROUP + "mitglieder/<int:member_id>/rolle/", views.set_role, name="set_role"),
    path(
        GROUP + "mitglieder/<int:member_id>/entfernen/", views.remove_member, name="remove_member"
    ),
    path(GROUP + "austreten/", views.leave, name="leave"),
    path(GROUP + "mein-name/", views.rename, name="rename"),
    path(GROUP + "loeschen/", views.delete, name="delete"),
    path(GROUP + "kalender/<slug:token>.ics", views.calendar_feed, name="calendar"),
    path(GROUP + "abende/neu/", views.night_create, name="night_create"),
    path(NIGHT, views.night, name="night"),
    path(NIGHT + "bearbeiten/", views.night_edit, name="night_edit"),
    path(NIGHT + "antwort/<int:option>/", views.answer, name="answer"),
    path(NIGHT + "festlegen/", views.fix, name="fix"),
    path(NIGHT + "termin-vorschlagen/", views.add_option, name="add_option"),
    path(NIGHT + "zusage/", views.rsvp, name="rsvp"),
    path(NIGHT + "loeschen/", views.night_delete, name="night_delete"),
    path(NIGHT + "termin.ics", views.night_ics, name="night_ics"),
]
