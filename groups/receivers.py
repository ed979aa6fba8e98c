"""On login, guest memberships proven by this browser's cookie move to the account, so the
reader sees them in „Mein Bereich“ and on every device they log in on. And a group keeps
a leader, however its leader's membership ended (left, removed with the account)."""

from django.contrib.auth.signals import user_logged_in
from django.db.models import QuerySet
from django.db.models.signals import post_delete
from django.dispatch import receiver

from groups import identity, services
from groups.models import Member, PlayGroup


@receiver(user_logged_in, dispatch_uid="groups.adopt_guest_memberships")
def adopt_guest_memberships(sender, request, user, **kwargs):
    if request is None or not hasattr(request, "COOKIES"):
        return
    tokens = identity.cookie_tokens(request)
    if not tokens:
        return
    taken = set(Member.objects.filter(user=user).values_list("group_id", flat=True))
    for member in Member.objects.filter(token__in=tokens, user__isnull=True):
        # Two guest memberships in one group stay guests: the account keeps its own.
        if member.group_id not in taken:
            member.user = user
            member.save(update_fields=["user"])
            taken.add(member.group_id)


@receiver(post_delete, sender=Member, dispatch_uid="groups.keep_a_leader")
def keep_a_leader(sender, instance, origin=None, **kwargs):
    if instance.role != Member.Role.FOUNDER:
        return
    deleted = origin.model if isinstance(origin, QuerySet) else type(origin)
    if isinstance(deleted, type) and issubclass(deleted, PlayGroup):
        return  # the whole group goes
    services.hand_over(instance.group_id)
