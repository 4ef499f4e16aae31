package dev.ovnj.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ovnj completion}: prints a bash/zsh completion script that picocli generates from the
 * command model, so it always knows every subcommand and option of this build.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Print the bash/zsh completion script for ovnj.",
                "Install: ovnj completion > /etc/bash_completion.d/ovnj, or for this shell: source <(ovnj completion)"})
final class CompletionCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        System.out.print(AutoComplete.bash("ovnj", spec.root().commandLine()));
        System.out.flush();
        return 0;
    }
}
