package dev.ovnj.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ovnj} command line: one subcommand per job. */
@Command(name = "ovnj", mixinStandardHelpOptions = true, version = "ovnj 0.1.0-SNAPSHOT",
        description = "OVN Northbound load-balancer client.",
        subcommands = {DemoCommand.class})
public final class Main {

    /**
     * Runs the command line and exits with its code.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs the command line and returns its exit code, so tests can drive it in-process.
     *
     * @param args command-line arguments
     * @return the exit code
     */
    public static int run(String... args) {
        return new CommandLine(new Main()).execute(args);
    }
}
