# Salon in a container: one process, PostgreSQL via DATABASE_URL (see docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 SALON_DATA_DIR=/data
WORKDIR /srv/salon

COPY pyproject.toml constraints.txt README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY docs ./docs
# Every library at the version of the lock file (docs/deployment.md): an image built next
# month holds what the tests passed with.
RUN pip install --no-cache-dir --constraint constraints.txt -e . \
    && useradd --system --home /srv/salon salon \
    && mkdir -p /data && chown salon /data

USER salon
# The data directory (the embedded SQLite database and the development secret key, when no
# DATABASE_URL / SECRET_KEY is given) outlives the container.
VOLUME ["/data"]
EXPOSE 8000
# Healthy once the app answers and its database does (GET /api/health); the slim image has
# no curl, Python is there.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=4)"]
CMD ["sh", "-c", "salon migrate && salon serve --host 0.0.0.0 --port 8000"]
