// Starts Swagger UI on /docs from the app's own copy (no CDN, no inline script).
const root = document.getElementById("swagger-ui");
window.SwaggerUIBundle({
  url: root.dataset.openapiUrl,
  domNode: root,
  deepLinking: true,
});
