package dev.ovnj.cli;

import picocli.CommandLine.Option;

/** The {@code --output} option shared by the commands that report a result. */
final class OutputOption {

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default) or json: one JSON document on standard output (shapes in docs/user-guide.md);"
                    + " problems still go to standard error.")
    private OutputFormat format = OutputFormat.TEXT;

    /**
     * Whether JSON was asked for.
     *
     * @return whether to print JSON
     */
    boolean json() {
        return format == OutputFormat.JSON;
    }
}
