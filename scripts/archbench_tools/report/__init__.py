"""The Markdown report and the static dashboard."""
