"""Layer 4: how everything published is written, whatever it shows. The languages and
their labels (labels.json, every language side by side), the one Markdown escaper and
GFM table builder, the few HTML fragments written as strings, the Jinja2 environment
of the HTML pages and its templates (templates/: pages, style sheets, the sorting
script), and the SVG writer with the reliability diagram drawn with it."""
