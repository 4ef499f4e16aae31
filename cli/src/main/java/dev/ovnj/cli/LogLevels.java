package dev.ovnj.cli;

import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The log levels of a run, set once the command line is parsed and before the command makes its
 * first logger (slf4j-simple reads its configuration then, once). A one-shot command prints its
 * own lines and logs only warnings; {@code ovnj kubernetes} runs for days, so it logs every state
 * change of ovnj's own at INFO with a timestamp; {@code --verbose} (or {@code OVNJ_VERBOSE=true}
 * where the command reads its options from the environment) adds the libraries' INFO lines.
 */
final class LogLevels {
    private static final String PREFIX = "org.slf4j.simpleLogger.";

    private LogLevels() {
    }

    /**
     * Sets the levels for the command the arguments chose.
     *
     * @param parsed the parsed command line
     */
    static void apply(ParseResult parsed) {
        ParseResult leaf = leaf(parsed);
        boolean daemon = leaf.commandSpec().userObject() instanceof KubernetesCommand;
        if (verbose(parsed)) {
            System.setProperty(PREFIX + "defaultLogLevel", "info");
        }
        if (verbose(parsed) || daemon) {
            // simplelogger.properties quiets dev.ovnj.lb on its own: name it too.
            System.setProperty(PREFIX + "log.dev.ovnj", "info");
            System.setProperty(PREFIX + "log.dev.ovnj.lb", "info");
        }
        if (daemon) {
            System.setProperty(PREFIX + "showDateTime", "true");
            System.setProperty(PREFIX + "dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
            System.setProperty(PREFIX + "showShortLogName", "true");
        }
    }

    /**
     * Whether the chosen command's {@code --verbose} is on, from the command line or, for a
     * command with {@link EnvironmentDefaults}, from {@code OVNJ_VERBOSE}.
     *
     * @param parsed the parsed command line, or null when parsing failed
     * @return whether to be verbose
     */
    static boolean verbose(ParseResult parsed) {
        if (parsed == null) {
            return false;
        }
        OptionSpec option = leaf(parsed).commandSpec().findOption("--verbose");
        return option != null && Boolean.TRUE.equals(option.getValue());
    }

    private static ParseResult leaf(ParseResult parsed) {
        ParseResult leaf = parsed;
        while (leaf.hasSubcommand()) {
            leaf = leaf.subcommand();
        }
        return leaf;
    }
}
