package dev.ovnj.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.spring.sample.SampleApplication;
import dev.ovnj.testkit.StderrCapture;
import java.beans.PropertyDescriptor;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

/**
 * The sample application started with one bad {@code ovnj.*} property at a time (no database is
 * needed: the properties are checked before any client is built): the start fails, and the
 * failure analysis Spring Boot prints is {@link OvnjPropertiesFailureAnalyzer}'s, naming the
 * property as configuration spells it and saying in its action what the property accepts.
 */
class OvnjPropertiesFailureAnalyzerTest {
    private static final Pattern ANALYSIS = Pattern.compile("Description:\\R\\R(.*?)\\R\\RAction:\\R\\R(.*?)\\R\\R", Pattern.DOTALL);

    /** What Spring Boot printed under "Description:" and "Action:". */
    record Analysis(String description, String action) {
    }

    @Test
    void aValueThatDoesNotConvertIsNamedInItsHyphenatedForm() {
        Analysis a = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.request-timeout=abc");
        assertThat(a.description()).startsWith("ovnj.engine.request-timeout = 'abc'").contains("is not valid").contains("abc")
                .doesNotContain("requestTimeout");
        assertThat(a.action()).isEqualTo("Set ovnj.engine.request-timeout to a positive duration, such as 30s, 500ms or PT30S.");

        Analysis enabled = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.enabled=maybe");
        assertThat(enabled.description()).startsWith("ovnj.engine.enabled = 'maybe'");
        assertThat(enabled.action()).isEqualTo("Set ovnj.engine.enabled to true or false.");
    }

    @Test
    void aValueTheValidatorRefusesIsNamedInItsHyphenatedFormWithWhatIsWrong() {
        Analysis zero = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.request-timeout=0s");
        assertThat(zero.description()).startsWith("ovnj.engine.request-timeout = '0s'").contains("must be positive")
                .doesNotContain("requestTimeout");
        assertThat(zero.action()).isEqualTo("Set ovnj.engine.request-timeout to a positive duration, such as 30s, 500ms or PT30S.");

        Analysis noPort = failure("ovnj.northbound.remotes=tcp:127.0.0.1");
        assertThat(noPort.description()).startsWith("ovnj.northbound.remotes = 'tcp:127.0.0.1'")
                .contains("no port; OVN's Northbound listens on 6641");
        assertThat(noPort.action()).startsWith("Set ovnj.northbound.remotes to comma-separated OVSDB remotes tcp:IP:PORT")
                .contains("6641").contains("6642");

        Analysis tls = failure("ovnj.northbound.remotes=ssl:127.0.0.1:1", "ovnj.northbound.private-key=/tmp/key.pem");
        assertThat(tls.description()).startsWith("ovnj.northbound.certificate (not set)")
                .contains("TLS needs all of private-key, certificate and ca-cert").doesNotContain("privateKey");
        assertThat(tls.action()).startsWith("Set ovnj.northbound.certificate to the path of a PEM file");

        Analysis lock = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.lock=shop-lb");
        assertThat(lock.description()).startsWith("ovnj.engine.lock = 'shop-lb'").contains("is not an <id>");
        assertThat(lock.action()).isEqualTo("Set ovnj.engine.lock to an OVSDB lock name: a letter or _, then letters, digits or _.");
    }

    @Test
    void theControllerSettingsAreValidatedAndNamedToo() {
        Analysis share = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.deletion-budget.share=1.5");
        assertThat(share.description()).startsWith("ovnj.engine.deletion-budget.share = '1.5'").contains("must be between 0 and 1")
                .doesNotContain("deletionBudget");
        assertThat(share.action()).isEqualTo("Set ovnj.engine.deletion-budget.share to a fraction of the owner's rows from 0 to 1"
                + " (default 0.5).");

        Analysis backoff = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.northbound.reconnect-backoff.min=10s",
                "ovnj.northbound.reconnect-backoff.max=1s");
        assertThat(backoff.description()).startsWith("ovnj.northbound.reconnect-backoff.max = '1s'")
                .contains("min (PT10S) must not exceed max (PT1S)");
        assertThat(backoff.action()).startsWith("Set ovnj.northbound.reconnect-backoff.max to a duration not below reconnect-backoff.min");

        Analysis probe = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.southbound.remotes=tcp:127.0.0.1:6642",
                "ovnj.southbound.probe-interval=-1s");
        assertThat(probe.description()).startsWith("ovnj.southbound.probe-interval = '-1s'").contains("must not be negative");

        Analysis eip = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.eip-policy=maybe");
        assertThat(eip.description()).startsWith("ovnj.engine.eip-policy = 'maybe'").contains("is not valid");
        assertThat(eip.action()).isEqualTo("Set ovnj.engine.eip-policy to warn (default) or reject.");

        Analysis ops = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.max-ops-per-transaction=0",
                "ovnj.engine.stall-timeout=0s");
        assertThat(ops.description()).contains("ovnj.engine.max-ops-per-transaction = '0'").contains("must be at least 1")
                .contains("ovnj.engine.stall-timeout = '0s'").contains("must be positive");
    }

    @Test
    void anUnknownKeyIsNamedWithTheNearestPropertyAndTheListOfThemAll() {
        // Without remotes the auto-configuration is off; before issue 45 this started without ovnj and without a word.
        Analysis remote = failure("ovnj.northbound.remote=tcp:127.0.0.1:6641");
        assertThat(remote.description()).startsWith("ovnj.northbound.remote (from ").endsWith("is not an ovnj property.");
        assertThat(remote.action()).startsWith("Did you mean ovnj.northbound.remotes instead of ovnj.northbound.remote? ")
                .contains("The ovnj properties are: ").contains("ovnj.engine.request-timeout");

        Analysis timeout = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.engine.request-timout=5s");
        assertThat(timeout.description()).startsWith("ovnj.engine.request-timout");
        assertThat(timeout.action()).startsWith("Did you mean ovnj.engine.request-timeout instead of ovnj.engine.request-timout?");

        Analysis far = failure("ovnj.northbound.remotes=tcp:127.0.0.1:6641", "ovnj.colour=blue");
        assertThat(far.description()).startsWith("ovnj.colour");
        assertThat(far.action()).as("nothing near: no guess").startsWith("The ovnj properties are: ");
    }

    @Test
    void theAnalyzerKnowsEveryPropertyOvnjPropertiesBinds() {
        Set<String> bound = new TreeSet<>();
        collect("ovnj", OvnjProperties.class, bound);
        assertThat(bound).hasSize(37).contains("ovnj.northbound.reconnect-backoff.max", "ovnj.engine.deletion-budget.share");
        assertThat(OvnjPropertiesFailureAnalyzer.PROPERTIES.keySet()).containsExactlyInAnyOrderElementsOf(bound);
    }

    /** The properties a type binds: its setters, and the groups its read-only getters of ovnj's own nested types open. */
    private static void collect(String prefix, Class<?> type, Set<String> bound) {
        for (PropertyDescriptor p : BeanUtils.getPropertyDescriptors(type)) {
            if (p.getReadMethod() == null || p.getReadMethod().getDeclaringClass() == Object.class) {
                continue;
            }
            String name = prefix + "." + DataObjectPropertyName.toDashedForm(p.getName());
            if (p.getWriteMethod() != null) {
                bound.add(name);
            } else if (p.getPropertyType().getEnclosingClass() == OvnjProperties.class) {
                collect(name, p.getPropertyType(), bound);
            }
        }
    }

    /** Starts the sample, which must fail; returns the failure analysis Spring Boot printed. */
    private static Analysis failure(String... properties) {
        try (StderrCapture err = StderrCapture.start()) {
            assertThatThrownBy(() -> new SpringApplicationBuilder(SampleApplication.class).web(WebApplicationType.NONE)
                    .properties("ovnj.engine.owner=sample", "sample.router=r0", "sample.vip=10.0.0.100:80")
                    .properties(properties).run().close()).as("the start fails").isInstanceOf(RuntimeException.class);
            String text = err.text();
            assertThat(text).as("the failure analysis").contains("APPLICATION FAILED TO START");
            Matcher m = ANALYSIS.matcher(text.substring(text.indexOf("APPLICATION FAILED TO START")));
            assertThat(m.find()).as("a description and an action in:%n%s", text).isTrue();
            return new Analysis(m.group(1).strip(), m.group(2).strip());
        }
    }
}
