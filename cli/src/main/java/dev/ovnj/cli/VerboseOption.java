package dev.ovnj.cli;

import picocli.CommandLine.Option;

/** The {@code --verbose} option; {@link Main} reads it before parsing, to set the log level in time. */
final class VerboseOption {

    @Option(names = "--verbose", description = "Log what the client and engine do and print stack traces of errors.")
    private boolean verbose;

    /**
     * Whether {@code --verbose} was given.
     *
     * @return whether to be verbose
     */
    boolean on() {
        return verbose;
    }
}
