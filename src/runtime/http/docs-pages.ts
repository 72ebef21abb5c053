/**
 * The documentation pages: Swagger UI at `/docs`, ReDoc at `/redoc`, and
 * Swagger UI's OAuth2 redirect page. The gateway exempts exactly these paths, so
 * no page may load an asset from under `/docs/…`: Swagger UI's CSS and script are inlined from
 * the installed `swagger-ui-dist`, read once per process. ReDoc has no package installable on
 * Node 20 here, so `/redoc` loads its standalone script from jsDelivr, as FastAPI does.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The ReDoc bundle FastAPI loads. */
export const REDOC_JS_URL = 'https://cdn.jsdelivr.net/npm/redoc@2/bundles/redoc.standalone.js';

/** The three pages' HTML. */
export interface DocsPages {
  readonly swaggerUi: string;
  readonly redoc: string;
  readonly oauth2Redirect: string;
}

/** Inline text must not close its element early. */
const inlineScript = (text: string): string => text.replaceAll('</script', '<\\/script');
const inlineStyle = (text: string): string => text.replaceAll('</style', '<\\/style');

let assets: { css: string; js: string; redirectJs: string; favicon: string } | undefined;

/** swagger-ui-dist's files, read on first use and kept. */
function swaggerAssets(): NonNullable<typeof assets> {
  if (assets === undefined) {
    const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const read = (name: string) => readFileSync(join(dir, name));
    assets = {
      css: inlineStyle(read('swagger-ui.css').toString('utf8')),
      js: inlineScript(read('swagger-ui-bundle.js').toString('utf8')),
      redirectJs: inlineScript(read('oauth2-redirect.js').toString('utf8')),
      favicon: `data:image/png;base64,${read('favicon-32x32.png').toString('base64')}`,
    };
  }
  return assets;
}

/**
 * Builds the pages for a document titled `title` served at `openapiUrl`; the Swagger UI page
 * carries swagger-ui-dist inline and works offline.
 */
export function buildDocsPages(title: string, openapiUrl: string): DocsPages {
  const { css, js, redirectJs, favicon } = swaggerAssets();
  const url = JSON.stringify(openapiUrl);
  const swaggerUi = `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>${title} - Swagger UI</title>
<link rel="shortcut icon" href="${favicon}">
<style>
${css}
</style>
</head>
<body>
<div id="swagger-ui"></div>
<script>
${js}
</script>
<script>
const ui = SwaggerUIBundle({
  url: ${url},
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  oauth2RedirectUrl: window.location.origin + '/docs/oauth2-redirect',
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
</script>
</body>
</html>
`;
  const redoc = `<!DOCTYPE html>
<html>
<head>
<title>${title} - ReDoc</title>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="shortcut icon" href="${favicon}">
<style>
  body { margin: 0; padding: 0; }
</style>
</head>
<body>
<noscript>ReDoc requires Javascript to function. Please enable it to browse the documentation.</noscript>
<redoc spec-url=${url}></redoc>
<script src="${REDOC_JS_URL}"></script>
</body>
</html>
`;
  const oauth2Redirect = `<!doctype html>
<html lang="en-US">
<head>
<title>Swagger UI: OAuth2 Redirect</title>
</head>
<body>
<script>
${redirectJs}
</script>
</body>
</html>
`;
  return { swaggerUi, redoc, oauth2Redirect };
}
