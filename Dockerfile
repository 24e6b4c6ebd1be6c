# The image docs/scale-out.md's Kubernetes Jobs run: an lme checkout, installed, at /lme.
# Data, caches, model files and results live on the shared volume (/shared), never in the image.
# BASE: any image with Node 20 and npm (scripts/build-image.sh builds one from Debian's packages).
ARG BASE=node:20-bookworm-slim
FROM ${BASE}
RUN npm i -g pnpm@10.34.9
WORKDIR /lme
COPY . .
# onnxruntime-node looks for CUDA parts unless told to skip them (CPU only here).
ENV ONNXRUNTIME_NODE_INSTALL_CUDA=skip
RUN pnpm install --frozen-lockfile
ENV LME_DATA_DIR=/shared/datasets LME_CACHE_DIR=/shared/lme-cache
CMD ["pnpm", "-s", "lme", "run", "--dataset", "sample", "--preset", "bm25", "--out", "/tmp/lme-results"]
