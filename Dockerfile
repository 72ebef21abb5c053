# Multi-stage build: compile with dev dependencies, run with production ones only.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json gateway.yaml ./
COPY policies ./policies
USER node
EXPOSE 8080 9090
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["serve", "--config", "/app/gateway.yaml"]
