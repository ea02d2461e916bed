"""The server-rendered pages (``routes``), their templates and static files, and the small
Markdown converter of the rules pages (``markdown``)."""
