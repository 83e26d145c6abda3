"""Search forms: find them on rendered pages, query them round after round, crawl what they reveal.

The deep-web crawler of the source papers (docs/forms.md): search forms are told from login,
registration, newsletter, comment, contact, upload and delete forms by their structure
(:mod:`.classify`); the pages holding them are clustered (:mod:`.cluster`); queries start from each
cluster's top terms and continue with the top terms of their result pages (:mod:`.plan`); result
pages and the records they list enter the normal crawl through the frontier (:mod:`.hook`).
"""
