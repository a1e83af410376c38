"""Jinja pages and static assets, installed as the package ``companion.templates``
(pyproject maps this folder there) so a wheel install serves the pages."""
