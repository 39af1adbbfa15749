"""The offline Pyodide runtime the site carries: fetched, checked against its pins, re-packed,
its boot modules compiled to bytecode."""
