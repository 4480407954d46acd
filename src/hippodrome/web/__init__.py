"""Static pages (HTML, CSS, ES modules, SVG) served by hippodrome.server: no build step."""
