package dev.ovnj.cli;

/** How {@code status}, {@code diff} and {@code reconcile} print their result. */
enum OutputFormat {
    /** Lines for people (the default). */
    TEXT,
    /** One JSON document per result, on one line, for scripts; the shapes are in docs/user-guide.md. */
    JSON
}
