"""Static files in the production shape: hashed names, compressed, and JS module imports
rewritten to the hashed files.

Without the rewrite a hashed ``game.<hash>.js`` still imports ``./socket.js``, so after a
deploy a browser could run the new page with an old module from its cache (or the reverse).
Django's manifest storage rewrites ``import``/``export ... from`` paths in JS when asked to.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
