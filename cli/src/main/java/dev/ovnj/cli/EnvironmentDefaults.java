package dev.ovnj.cli;

import java.util.Locale;
import java.util.function.UnaryOperator;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Defaults from {@code OVNJ_*} environment variables, for a command configured by its Deployment
 * ({@code ovnj kubernetes}): {@code --external-port} reads {@code OVNJ_EXTERNAL_PORT}. An option
 * given on the command line wins; without either, the option's own default applies.
 */
final class EnvironmentDefaults implements IDefaultValueProvider {
    private final UnaryOperator<String> environment;

    /** Reads the process's environment (how picocli makes it). */
    EnvironmentDefaults() {
        this(System::getenv);
    }

    /**
     * Reads a given environment, for tests.
     *
     * @param environment a variable's value by name, null when unset
     */
    EnvironmentDefaults(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        String value = environment.apply(variable(option.longestName()));
        return value == null || value.isBlank() ? null : value;
    }

    /**
     * The environment variable of an option: {@code --ca-cert} is {@code OVNJ_CA_CERT}.
     *
     * @param option the option's long name
     * @return the variable's name
     */
    static String variable(String option) {
        return "OVNJ_" + option.replaceFirst("^-+", "").replace('-', '_').toUpperCase(Locale.ROOT);
    }
}
