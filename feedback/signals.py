"""Events other apps may listen to (accounts books points for accepted reports)."""

from django.dispatch import Signal

# Sent after editors changed the status of reports (one or many): report_ids, status.
report_status_changed = Signal()
