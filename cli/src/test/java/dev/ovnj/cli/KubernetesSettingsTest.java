package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.kubernetes.ControllerSettings;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** {@code ovnj kubernetes}'s tenancy options: a router is optional and serves only the namespaces named. */
class KubernetesSettingsTest {
    private static ControllerSettings settings(String... args) {
        CommandLine ovnj = new CommandLine(new Main());
        ovnj.getSubcommands().get("kubernetes").setDefaultValueProvider(new EnvironmentDefaults(Map.<String, String>of()::get));
        String[] all = new String[args.length + 3];
        all[0] = "kubernetes";
        all[1] = "--db";
        all[2] = "tcp:127.0.0.1:6641";
        System.arraycopy(args, 0, all, 3, args.length);
        CommandLine.ParseResult parsed = ovnj.parseArgs(all).subcommand();
        return ((KubernetesCommand) parsed.commandSpec().userObject()).settings();
    }

    @Test
    void withoutRouterOnlyPoolsGiveAddresses() {
        ControllerSettings s = settings();
        assertThat(s.router()).isEmpty();
        assertThat(s.externalPort()).isEmpty();
        assertThat(s.routerServes("default")).isFalse();
    }

    @Test
    void theRouterServesOnlyTheNamespacesNamedAndStarForEvery() {
        ControllerSettings none = settings("--router", "gw", "--external-port", "gw-ext");
        assertThat(none.router()).contains("gw");
        assertThat(none.routerServes("default")).isFalse();
        ControllerSettings two = settings("--router", "gw", "--external-port", "gw-ext", "--router-namespaces", "a, b");
        assertThat(two.routerNamespaces()).isEqualTo(Set.of("a", "b"));
        assertThat(two.routerServes("a")).isTrue();
        assertThat(two.routerServes("c")).isFalse();
        assertThat(settings("--router", "gw", "--external-port", "gw-ext", "--router-namespaces", "*").routerServes("c")).isTrue();
    }

    @Test
    void aHalfRouterAnAttachmentWithoutRouterAndABadExcludeAreNamed() {
        assertThatThrownBy(() -> settings("--router", "gw")).isInstanceOf(ParameterException.class)
                .hasMessage("--external-port (or OVNJ_EXTERNAL_PORT) is required with --router");
        assertThatThrownBy(() -> settings("--switch", "pods")).isInstanceOf(ParameterException.class)
                .hasMessageContaining("need --router and --external-port");
        assertThatThrownBy(() -> settings("--exclude-addresses", "10.0.0.1-10.0.0.5,bogus")).isInstanceOf(ParameterException.class)
                .hasMessageStartingWith("--exclude-addresses: \"bogus\" is not a range");
        assertThat(settings("--exclude-addresses", "10.0.0.1-10.0.0.5, 10.0.1.0/24").excludeAddresses())
                .containsExactly("10.0.0.1-10.0.0.5", "10.0.1.0/24");
    }
}
