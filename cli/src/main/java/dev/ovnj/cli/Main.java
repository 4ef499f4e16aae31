package dev.ovnj.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code ovnj} command line: one subcommand per job. */
@Command(name = "ovnj", mixinStandardHelpOptions = true, versionProvider = BuildInfo.Provider.class,
        description = {"OVN Northbound load-balancer client.",
                "ovnj nbctl [--db REMOTES] COMMAND [ARG...] [-- COMMAND ...] runs ovn-nbctl command lines."},
        subcommands = {ReconcileCommand.class, DiffCommand.class, StatusCommand.class, DoctorCommand.class,
                DemoCommand.class, ServeCommand.class, KubernetesCommand.class, VersionCommand.class, CompletionCommand.class,
                ClassDataTraining.class})
public final class Main {
    /** Exit code of every failure: unreachable database, invalid file or spec, bad usage. */
    static final int TROUBLE = 2;

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
        if (args.length > 0 && args[0].equals("nbctl")) {
            return NbctlCommand.run(java.util.List.of(args).subList(1, args.length), System.getenv(), System.out, System.err);
        }
        return new CommandLine(new Main())
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionStrategy(parseResult -> {
                    LogLevels.apply(parseResult);
                    return new CommandLine.RunLast().execute(parseResult);
                })
                .setExecutionExceptionHandler((e, cmd, parseResult) -> {
                    if (LogLevels.verbose(parseResult)) {
                        e.printStackTrace();
                    }
                    cmd.getErr().println(message(e));
                    cmd.getErr().flush();
                    return TROUBLE;
                })
                .execute(args);
    }

    /** One line naming the problem: the message for expected failures, the exception for bugs. */
    private static String message(Exception e) {
        if (e instanceof DesiredStateException || e instanceof CliFailure) {
            return e.getMessage();
        }
        return "ovnj: unexpected error: " + e + " (run with --verbose for details)";
    }
}
