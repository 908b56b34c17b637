"""The project's own date and time formats per language (``FORMAT_MODULE_PATH``): what a format
here does not name, Django's formats of that language give."""
