package dev.ovnj.lb;

import static dev.ovnj.lb.EngineFixture.WAIT;
import static dev.ovnj.lb.OwnedRows.OWNER;
import static dev.ovnj.lb.OwnedRows.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.ovsdb.FrameLimits;
import dev.ovnj.ovsdb.client.OvsdbClient;
import dev.ovnj.ovsdb.client.TlsConfig;
import dev.ovnj.ovsdb.monitor.MonitorRequest;
import dev.ovnj.ovsdb.monitor.TableMonitor;
import dev.ovnj.ovsdb.tx.Transaction;
import dev.ovnj.ovsdb.typed.Compatibility;
import dev.ovnj.ovsdb.typed.DatabaseModel;
import dev.ovnj.testkit.OvsdbServer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every public method of the engine, the client and their builders, called with a null in each
 * reference parameter (the others valid) and with bad values: each call throws at once, naming
 * what is wrong, or completes (its future within the request timeout). Walked by reflection, so
 * that a method added later is covered, or fails this test for want of a sample value.
 */
class PublicApiArgumentsIT {
    /** The engine's request timeout here; every future must be done a little after it. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration BOUND = REQUEST_TIMEOUT.plusSeconds(5);

    private static OvsdbServer server;
    private static OvsdbClient client;
    private static LoadBalancerEngine engine;

    @BeforeAll
    static void start() {
        server = OvsdbServer.start();
        EngineFixture.seed(dev.ovnj.testkit.Nbctl.of(server));
        client = EngineFixture.client(server.remote()).startAndWait(WAIT);
        engine = LoadBalancerEngine.builder(client).requestTimeout(REQUEST_TIMEOUT).build().start();
    }

    @AfterAll
    static void stop() {
        engine.close();
        client.close();
        server.close();
    }

    @Test
    void everyNullArgumentOfTheEngineThrowsAtTheCallOrCompletes() throws Exception {
        List<String> checked = walk(LoadBalancerEngine.class, () -> engine);
        assertThat(checked).contains("apply#0", "apply#1", "apply#2", "upsert#0", "upsert#1", "remove#1", "status#0", "addListener#0");
    }

    @Test
    void everyNullArgumentOfTheEngineBuilderThrowsAtTheCall() throws Exception {
        List<String> checked = walk(LoadBalancerEngine.Builder.class, () -> LoadBalancerEngine.builder(client));
        assertThat(checked).contains("batchWindow#0", "retryBackoff#1", "lock#0", "requestTimeout#0", "southbound#0");
    }

    @Test
    void everyNullArgumentOfTheClientThrowsAtTheCallOrCompletes() throws Exception {
        List<String> checked = walk(OvsdbClient.class, () -> client);
        assertThat(checked).contains("transact#0", "transactAndWait#1", "call#0", "lock#0", "changeConditions#0", "monitor#1",
                "startAndWait#0");
    }

    @Test
    void everyNullArgumentOfTheClientBuilderThrowsAtTheCallOrAtBuild() throws Exception {
        List<String> checked = walk(OvsdbClient.Builder.class, () -> OvsdbClient.builder().remotes(server.remote()));
        assertThat(checked).contains("remotes#0", "database#0", "monitor#0", "requestTimeout#0", "backoff#0", "frameLimits#0");
    }

    @Test
    void badValuesAreRefusedAtTheCallOrAnsweredWithAState() throws Exception {
        // An empty owner is a property of the declaration: the spec is INVALID, as every spec error.
        ApplyResult invalid = engine.apply("", List.of(spec(0, 1))).get(BOUND.toSeconds(), TimeUnit.SECONDS);
        assertThat(invalid.statuses().get("svc-0").state()).isEqualTo(SpecStatus.State.INVALID);
        assertThat(invalid.statuses().get("svc-0").reasons()).anyMatch(r -> r.contains("owner"));
        // Removing what was never declared is answered at once: there was nothing to remove.
        assertThatThrownBy(() -> engine.remove(OWNER, "no-such-spec").get(BOUND.toSeconds(), TimeUnit.SECONDS))
                .cause().isInstanceOf(UnknownSpecException.class).hasMessageContaining("no-such-spec");
        assertThatThrownBy(() -> LoadBalancerEngine.builder(client).requestTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestTimeout");
        assertThatThrownBy(() -> LoadBalancerEngine.builder(client).batchWindow(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batchWindow");
        assertThatThrownBy(() -> LoadBalancerEngine.builder(client).lock("1 lock"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lock name");
        assertThatThrownBy(() -> LoadBalancerEngine.builder(client).maxPendingRequests(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPendingRequests");
        // A client whose requests could wait for ever is refused at build().
        assertThatThrownBy(() -> OvsdbClient.builder().remotes(server.remote()).requestTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestTimeout");
        assertThatThrownBy(() -> OvsdbClient.builder().remotes(server.remote()).connectTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("connectTimeout");
        assertThatThrownBy(() -> OvsdbClient.builder().remotes(server.remote()).probeInterval(Duration.ofSeconds(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("probeInterval");
        assertThatThrownBy(() -> client.lock("not a lock id")).isInstanceOf(IllegalArgumentException.class);
        // A call the server refuses completes exceptionally, within the client's request timeout.
        CompletableFuture<?> unknown = client.call("no_such_method", JsonNodeFactory.instance.arrayNode());
        assertThatThrownBy(() -> unknown.get(BOUND.toSeconds(), TimeUnit.SECONDS)).isNotInstanceOf(TimeoutException.class);
        // The engine still works after all of the above.
        assertThat(engine.upsert(OWNER, spec(1, 1)).get(BOUND.toSeconds(), TimeUnit.SECONDS).allApplied()).isTrue();
    }

    /**
     * Calls each public instance method of {@code type} that takes a reference parameter once per
     * such parameter with null there; returns {@code name#index} of each call made.
     */
    private static <T> List<String> walk(Class<T> type, Supplier<T> target) throws Exception {
        List<String> checked = new ArrayList<>();
        for (Method m : type.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || m.isSynthetic()) {
                continue;
            }
            Class<?>[] params = m.getParameterTypes();
            for (int i = 0; i < params.length; i++) {
                if (params[i].isPrimitive()) {
                    continue;
                }
                Object[] args = new Object[params.length];
                for (int j = 0; j < params.length; j++) {
                    args[j] = j == i ? null : sample(params[j]);
                }
                String call = m.getName() + "#" + i;
                checkCall(call, m, Modifier.isStatic(m.getModifiers()) ? null : target.get(), args);
                checked.add(call);
            }
        }
        return checked;
    }

    private static void checkCall(String call, Method m, Object target, Object[] args) throws Exception {
        Object result;
        try {
            result = m.invoke(target, args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            assertThat(cause).as(call + " threw").isInstanceOfAny(NullPointerException.class, IllegalArgumentException.class);
            // Objects.requireNonNull(x, "name") or a message of ours, not a helpful NPE from deep inside.
            assertThat(cause.getMessage()).as(call + ": " + cause).isNotNull().doesNotContain("because");
            return;
        }
        if (result instanceof CompletableFuture<?> f) {
            try {
                f.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError(call + " returned a future still pending after " + BOUND, e);
            } catch (java.util.concurrent.ExecutionException e) {
                // Completed exceptionally: a promise kept.
            }
        } else if (result instanceof OvsdbClient.Builder b) {
            // A setter that accepts null (tls: none) must leave a builder that builds or refuses at build().
            try {
                b.build().close();
            } catch (NullPointerException | IllegalArgumentException e) {
                assertThat(e.getMessage()).as(call + " then build(): " + e).isNotNull().doesNotContain("because");
            }
        }
    }

    private static Object sample(Class<?> type) {
        LoadBalancerSpec spec = spec(0, 1);
        Map<Class<?>, Object> samples = Map.ofEntries(
                Map.entry(String.class, "ovnj_sample"),
                Map.entry(List.class, List.of(spec)),
                Map.entry(LoadBalancerSpec.class, spec),
                Map.entry(ApplyOption[].class, new ApplyOption[0]),
                Map.entry(Adoption.class, Adoption.rows("no-such-row")),
                Map.entry(Duration.class, Duration.ofSeconds(1)),
                Map.entry(EipPolicy.class, EipPolicy.WARN),
                Map.entry(DeletionBudget.class, DeletionBudget.DEFAULT),
                Map.entry(OvsdbClient.class, client),
                Map.entry(Transaction.class, client.transaction().build()),
                Map.entry(ArrayNode.class, JsonNodeFactory.instance.arrayNode()),
                Map.entry(TableMonitor[].class, new TableMonitor[0]),
                Map.entry(MonitorRequest.class, MonitorRequest.tables("NB_Global")),
                Map.entry(TlsConfig.class, new TlsConfig(Path.of("key.pem"), Path.of("cert.pem"), Path.of("ca.pem"))),
                Map.entry(FrameLimits.class, FrameLimits.defaults()),
                Map.entry(DatabaseModel.class, new DatabaseModel("OVN_Northbound", "1.0.0", List.of())),
                Map.entry(Compatibility.class, Compatibility.LENIENT),
                Map.entry(UpsertOption[].class, new UpsertOption[] {UpsertOption.KEEP_DECLARED}));
        Object v = samples.get(type);
        if (v != null) {
            return v;
        }
        if (type.isInterface()) {
            // A listener: one that does nothing.
            return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, method, a) -> {
                if (method.getDeclaringClass() == Object.class) {
                    return switch (method.getName()) {
                        case "equals" -> p == a[0];
                        case "hashCode" -> System.identityHashCode(p);
                        default -> "sample " + type.getSimpleName();
                    };
                }
                return method.isDefault() ? java.lang.reflect.InvocationHandler.invokeDefault(p, method, a) : defaultValue(method.getReturnType());
            });
        }
        throw new AssertionError("no sample value for a parameter of type " + type.getName() + ": add one to "
                + PublicApiArgumentsIT.class.getSimpleName() + " (" + Arrays.toString(samples.keySet().toArray()) + ")");
    }

    private static Object defaultValue(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        return type.isPrimitive() && type != void.class ? 0 : null;
    }
}
