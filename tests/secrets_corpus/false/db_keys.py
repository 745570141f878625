"""Table options for the reporting store: partition and sort keys are column names."""

from dataclasses import dataclass


@dataclass(frozen=True)
class TableSpec:
    name: str
    primary_key: str
    sort_key: str | None = None


ORDERS = TableSpec(name="orders_2024", primary_key="order_id", sort_key="created_at")
EVENTS = TableSpec(name="events_v2", primary_key="user_id_2024_v2", sort_key="event_ts_ms")

SORT_KEY = "created_at_desc_v3"
PARTITION_KEY = "tenant_id_v2"
CACHE_KEY = "report:daily:v4"
cache_key = f"orders:{ORDERS.name}:page_1"
SECRET_NAME = "orders-db-credentials"
TOKEN_HEADER = "X-Auth-Token"


def index_name(spec: TableSpec) -> str:
    return f"ix_{spec.name}_{spec.sort_key or spec.primary_key}"
