"""Translation workflow: what each translation follows (state), how far each language is
(status), files for translators' tools (po, xliff), bringing their work back (importer, yamledit),
and pseudo-localization (pseudo). The `translations` command is registered by `cli_`."""
