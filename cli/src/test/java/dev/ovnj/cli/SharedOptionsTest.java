package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The options several commands share are one definition: every command that takes one accepts it
 * under the same names, with the same help text, parameter label and default.
 */
class SharedOptionsTest {
    private static final String DB = "tcp:127.0.0.1:6641";
    private static final String SB = "tcp:127.0.0.1:6642";

    /** Which command takes which shared option. */
    private static final Map<String, List<String>> TAKES = Map.of(
            "reconcile", List.of("--db", "--sb", "--owner", "--file", "--output", "--timeout", "--private-key", "--certificate",
                    "--ca-cert", "--verbose"),
            "diff", List.of("--db", "--owner", "--file", "--output", "--timeout", "--private-key", "--certificate", "--ca-cert",
                    "--verbose"),
            "status", List.of("--db", "--sb", "--owner", "--file", "--output", "--timeout", "--private-key", "--certificate",
                    "--ca-cert", "--verbose"),
            "doctor", List.of("--db", "--sb", "--owner", "--file", "--output", "--timeout", "--private-key", "--certificate",
                    "--ca-cert", "--verbose"),
            "kubernetes", List.of("--db", "--sb", "--owner", "--timeout", "--private-key", "--certificate", "--ca-cert", "--verbose"),
            "version", List.of("--output"),
            "demo", List.of("--verbose"));

    /** A value for each shared option, in its long and its short spelling. */
    private static final Map<String, List<String>> ARGS = Map.of(
            "--db", List.of("--db", DB),
            "--sb", List.of("--sb", SB),
            "--owner", List.of("--owner", "kube"),
            "--file", List.of("-f", "state.yaml"),
            "--output", List.of("-o", "json"),
            "--timeout", List.of("--timeout", "2.5"),
            "--private-key", List.of("-p", "key.pem"),
            "--certificate", List.of("-c", "cert.pem"),
            "--ca-cert", List.of("-C", "ca.pem"),
            "--verbose", List.of("--verbose"));

    private static CommandLine ovnj() {
        return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Test
    void everyCommandAcceptsEachOfItsSharedOptions() {
        TAKES.forEach((command, options) -> {
            String[] args = concat(command, options);
            ParseResult parsed = ovnj().parseArgs(args);
            ParseResult sub = parsed.subcommand();
            assertThat(sub.commandSpec().name()).isEqualTo(command);
            for (String option : options) {
                assertThat(sub.hasMatchedOption(option)).as(command + " " + option).isTrue();
            }
            if (options.contains("--timeout")) {
                assertThat(sub.<Double>matchedOptionValue("--timeout", 0.0)).isEqualTo(2.5);
            }
            if (options.contains("--output")) {
                assertThat(sub.<OutputFormat>matchedOptionValue("--output", OutputFormat.TEXT)).isEqualTo(OutputFormat.JSON);
            }
        });
    }

    @Test
    void aSharedOptionIsTheSameDefinitionInEveryCommand() {
        CommandLine ovnj = ovnj();
        for (String option : ARGS.keySet()) {
            List<OptionSpec> specs = TAKES.entrySet().stream().filter(e -> e.getValue().contains(option))
                    .map(e -> ovnj.getSubcommands().get(e.getKey()).getCommandSpec().findOption(option)).toList();
            assertThat(specs).as(option).hasSizeGreaterThan(0).doesNotContainNull();
            OptionSpec first = specs.get(0);
            for (OptionSpec s : specs) {
                assertThat(s.names()).as(option + " names in " + s.command().name()).containsExactly(first.names());
                assertThat(s.description()).as(option + " help in " + s.command().name()).containsExactly(first.description());
                assertThat(s.paramLabel()).as(option + " label in " + s.command().name()).isEqualTo(first.paramLabel());
                assertThat(s.defaultValue()).as(option + " default in " + s.command().name()).isEqualTo(first.defaultValue());
            }
        }
        assertThat(ovnj.getSubcommands().get("status").getCommandSpec().findOption("--timeout").defaultValue()).isEqualTo("10");
    }

    @Test
    void reconcileAndDiffNeedTheFile() {
        for (String command : List.of("reconcile", "diff")) {
            assertThat(Main.run(command, "--db", "tcp:127.0.0.1:1")).as(command).isEqualTo(2);
        }
        assertThatThrownBy(() -> ovnj().parseArgs("status")).hasMessageContaining("--db");
    }

    @Test
    void kubernetesReadsEachOptionFromItsEnvironmentVariableAndTheCommandLineWins() {
        Map<String, String> env = Map.of("OVNJ_DB", DB, "OVNJ_SB", SB, "OVNJ_TIMEOUT", "7", "OVNJ_OWNER", "kube",
                "OVNJ_EXTERNAL_PORT", "gw-ext", "OVNJ_CA_CERT", "ca.pem");
        CommandLine ovnj = ovnj();
        ovnj.getSubcommands().get("kubernetes").setDefaultValueProvider(new EnvironmentDefaults(env::get));
        ParseResult kube = ovnj.parseArgs("kubernetes", "--router", "gw", "--timeout", "3").subcommand();
        assertThat(kube.commandSpec().findOption("--db").<String>getValue()).isEqualTo(DB);
        assertThat(kube.commandSpec().findOption("--sb").<String>getValue()).isEqualTo(SB);
        assertThat(kube.commandSpec().findOption("--owner").<String>getValue()).isEqualTo("kube");
        assertThat(kube.commandSpec().findOption("--external-port").<String>getValue()).isEqualTo("gw-ext");
        assertThat(kube.commandSpec().findOption("--ca-cert").getValue().toString()).isEqualTo("ca.pem");
        assertThat(kube.commandSpec().findOption("--timeout").<Double>getValue()).isEqualTo(3.0);
        assertThat(kube.commandSpec().findOption("--lease-name").<String>getValue()).isEqualTo("ovnj-kubernetes");
    }

    private static String[] concat(String command, List<String> options) {
        List<String> args = new ArrayList<>(List.of(command));
        options.forEach(o -> args.addAll(ARGS.get(o)));
        return args.toArray(String[]::new);
    }
}
