# Memscope as one app server (a replica): Streamlit on port 8501, no secret inside.
# Build: docker build -t memscope .        Run a team deployment: see docs/deploy.md.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    MEMSCOPE_DATA_DIR=/data

RUN useradd --create-home --uid 10001 --user-group memscope \
    && install -d -o memscope -g memscope /data
WORKDIR /app

# Dependencies first, at the exact versions Memscope is tested with (constraints.txt).
COPY pyproject.toml constraints.txt README.md LICENSE ./
COPY memscope ./memscope
COPY components ./components
# The graph component's browser files are a package of their own (Streamlit serves a
# component's asset folder only from a package that ships its pyproject.toml).
RUN pip install -c constraints.txt . ./components/graph_view/frontend

# The app itself; .streamlit/config.toml only (secrets.toml is mounted at run time).
COPY app.py serve.py ./
COPY pages ./pages
COPY .streamlit/config.toml ./.streamlit/config.toml

USER memscope
EXPOSE 8501
HEALTHCHECK --interval=15s --timeout=5s --start-period=40s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status == 200 else 1)"]

# The address is opened here (the config file keeps local runs on localhost). Every
# replica needs the same cookie secret: STREAMLIT_SERVER_COOKIE_SECRET (see deploy/).
CMD ["python", "serve.py", "--server.address=0.0.0.0", "--server.port=8501"]
