"""gent-template: TEMPLATE one-line description."""

__all__: list[str] = []
