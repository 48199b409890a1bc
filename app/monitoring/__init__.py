"""What operators watch: `/metrics` for Prometheus, and the logs (docs/monitoring.md)."""
