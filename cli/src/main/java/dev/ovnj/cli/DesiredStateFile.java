package dev.ovnj.cli;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code -f/--file} option, one definition for every command that reads a desired-state file.
 * {@code reconcile} and {@code diff} need it ({@link #require()}); {@code status} and
 * {@code doctor} read it when given.
 */
final class DesiredStateFile {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec command;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE",
            description = "Desired state, YAML or JSON (docs/user-guide.md); required by reconcile and diff. status and doctor"
                    + " also report what it wants that the database lacks.")
    private Path file;

    /**
     * Reads the file, when given.
     *
     * @return the desired state, or null without {@code --file}
     * @throws DesiredStateException when the file is not a valid desired state
     */
    DesiredState readIfGiven() {
        return file == null ? null : DesiredStateReader.read(file);
    }

    /**
     * Reads the file, which the command needs.
     *
     * @return the desired state
     * @throws ParameterException (a usage error, exit 2) when {@code --file} was not given
     * @throws DesiredStateException when the file is not a valid desired state
     */
    DesiredState require() {
        if (file == null) {
            throw new ParameterException(command.commandLine(), "Missing required option: '--file=FILE'");
        }
        return DesiredStateReader.read(file);
    }

    /**
     * The file as given.
     *
     * @return the path, or null
     */
    Path path() {
        return file;
    }
}
