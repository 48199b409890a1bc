# Salon in a container: one process, PostgreSQL via DATABASE_URL (see docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 SALON_DATA_DIR=/data
WORKDIR /srv/salon

COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY docs ./docs
RUN pip install --no-cache-dir -e . \
    && useradd --system --home /srv/salon salon \
    && mkdir -p /data && chown salon /data

USER salon
EXPOSE 8000
CMD ["sh", "-c", "salon migrate && salon serve --host 0.0.0.0 --port 8000"]
