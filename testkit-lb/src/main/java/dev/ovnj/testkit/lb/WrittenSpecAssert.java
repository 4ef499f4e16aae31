package dev.ovnj.testkit.lb;

import dev.ovnj.lb.SpecStatus;
import dev.ovnj.nb.model.LoadBalancer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.assertj.core.api.AbstractAssert;

/**
 * AssertJ assertions on a {@link WrittenSpec}; start with
 * {@link EngineAssertions#assertThatSpec}. Each failure names the spec and prints the snapshot.
 */
public final class WrittenSpecAssert extends AbstractAssert<WrittenSpecAssert, WrittenSpec> {

    WrittenSpecAssert(WrittenSpec actual) {
        super(actual, WrittenSpecAssert.class);
    }

    /**
     * Verifies that the engine reports the spec APPLIED and that the cache holds every row its
     * status names.
     *
     * @return this assertion
     */
    public WrittenSpecAssert isApplied() {
        hasState(SpecStatus.State.APPLIED);
        if (actual.hasMissingRows()) {
            fail("every row its status names in the cache", actual.status().orElseThrow().rows().size() + " rows named and "
                    + actual.loadBalancers().size() + " in the cache");
        }
        return this;
    }

    /**
     * Verifies the state the engine reports for the spec.
     *
     * @param state the expected state
     * @return this assertion
     */
    public WrittenSpecAssert hasState(SpecStatus.State state) {
        isNotNull();
        Optional<SpecStatus.State> was = actual.status().map(SpecStatus::state);
        if (!was.equals(Optional.of(state))) {
            fail("state " + state, was.map(Object::toString).orElse("nothing declared under that name"));
        }
        return this;
    }

    /**
     * Verifies the names of the spec's rows, in any order ({@code web-tcp}, {@code web-udp}).
     *
     * @param names the expected row names
     * @return this assertion
     */
    public WrittenSpecAssert hasRowNames(String... names) {
        isNotNull();
        if (!new TreeSet<>(actual.rowNames()).equals(new TreeSet<>(Arrays.asList(names)))) {
            fail("rows " + Arrays.toString(names), actual.rowNames().toString());
        }
        return this;
    }

    /**
     * Verifies that the spec wrote nothing that the cache holds: no rows (a removed spec, or one
     * not yet written).
     *
     * @return this assertion
     */
    public WrittenSpecAssert hasNoRows() {
        isNotNull();
        if (!actual.loadBalancers().isEmpty()) {
            fail("no rows", actual.rowNames().toString());
        }
        return this;
    }

    /**
     * Verifies one VIP and its backends, as written ({@code "10.1.0.1:8080,10.1.0.2:8080"}:
     * give them in the engine's order, or as one comma-separated string).
     *
     * @param vip the VIP, e.g. {@code 10.0.0.10:80}
     * @param backends the backends, e.g. {@code "10.1.0.1:8080", "10.1.0.2:8080"}
     * @return this assertion
     */
    public WrittenSpecAssert hasVip(String vip, String... backends) {
        isNotNull();
        String expected = String.join(",", backends);
        String was = actual.vips().get(vip);
        if (!expected.equals(was)) {
            fail("VIP " + vip + " -> " + expected, was == null ? "no such VIP" : vip + " -> " + was);
        }
        return this;
    }

    /**
     * Verifies every VIP of the spec's rows and nothing more.
     *
     * @param vips VIP to backends as written
     * @return this assertion
     */
    public WrittenSpecAssert hasExactlyVips(Map<String, String> vips) {
        isNotNull();
        if (!actual.vips().equals(vips)) {
            fail("exactly the VIPs " + new java.util.TreeMap<>(vips), actual.vips().toString());
        }
        return this;
    }

    /**
     * Verifies that every row of the spec has an option ({@code options:key=value}).
     *
     * @param key the option, e.g. {@code reject}
     * @param value its value, e.g. {@code true}
     * @return this assertion
     */
    public WrittenSpecAssert hasOption(String key, String value) {
        isNotNull();
        hasSomeRows();
        for (LoadBalancer lb : actual.loadBalancers()) {
            if (!value.equals(lb.options().get(key))) {
                fail("option " + key + "=" + value + " on every row", lb.name() + " has options " + lb.options());
            }
        }
        return this;
    }

    /**
     * Verifies that no row of the spec has an option.
     *
     * @param key the option
     * @return this assertion
     */
    public WrittenSpecAssert doesNotHaveOption(String key) {
        isNotNull();
        for (LoadBalancer lb : actual.loadBalancers()) {
            if (lb.options().containsKey(key)) {
                fail("no option " + key, lb.name() + " has options " + lb.options());
            }
        }
        return this;
    }

    /**
     * Verifies the routers holding the spec's rows (directly or through a group), exactly.
     *
     * @param routers the router names; none for "attached to no router"
     * @return this assertion
     */
    public WrittenSpecAssert isAttachedToRouters(String... routers) {
        return attachments("routers", actual == null ? null : actual.routers(), routers);
    }

    /**
     * Verifies the switches holding the spec's rows (directly or through a group), exactly.
     *
     * @param switches the switch names; none for "attached to no switch"
     * @return this assertion
     */
    public WrittenSpecAssert isAttachedToSwitches(String... switches) {
        return attachments("switches", actual == null ? null : actual.switches(), switches);
    }

    /**
     * Verifies the load-balancer groups holding the spec's rows, exactly.
     *
     * @param groups the group names; none for "in no group"
     * @return this assertion
     */
    public WrittenSpecAssert isInGroups(String... groups) {
        return attachments("groups", actual == null ? null : actual.groups(), groups);
    }

    private WrittenSpecAssert attachments(String what, java.util.SortedSet<String> was, String... expected) {
        isNotNull();
        if (!Objects.equals(was, new TreeSet<>(Arrays.asList(expected)))) {
            fail(what + " " + List.of(expected), was.toString());
        }
        return this;
    }

    private void hasSomeRows() {
        if (actual.loadBalancers().isEmpty()) {
            fail("rows", "none");
        }
    }

    private void fail(String expected, String was) {
        failWithMessage("Expecting spec %s/%s to have %s, but found %s.%nWritten: %s", actual.owner(), actual.spec(), expected,
                was, describe(actual));
    }

    private static String describe(WrittenSpec w) {
        StringBuilder b = new StringBuilder();
        b.append("status ").append(w.status().map(s -> s.state() + (s.reason().isEmpty() ? "" : " (" + s.reason() + ")"))
                .orElse("none"));
        for (LoadBalancer lb : w.loadBalancers()) {
            b.append("; row ").append(lb.name()).append(" vips ").append(lb.vips()).append(" options ").append(lb.options());
        }
        b.append("; routers ").append(w.routers()).append(", switches ").append(w.switches()).append(", groups ").append(w.groups());
        return b.toString();
    }
}
