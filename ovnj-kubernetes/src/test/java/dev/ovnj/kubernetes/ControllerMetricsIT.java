package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics an on-call engineer alerts on, scraped over HTTP from a Lease holder and a standby
 * while Services are refused for several reasons and a one-address pool fills; then the alerts of
 * deploy/monitoring/prometheusrule.yaml run through {@code promtool test rules} on exactly the
 * series (names and labels) the two replicas exported.
 */
@EnableKubernetesMockClient(crud = true)
class ControllerMetricsIT extends ControllerTestBase {
    /** One sample line of the Prometheus text format. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)$");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** One scraped series. */
    record Sample(String name, String labels, double value) {
        String series(String instance) {
            return name + "{" + (labels.isEmpty() ? "" : labels + ",") + "instance=\"" + instance + "\"}";
        }
    }

    @Test
    void holderAndStandbyPublishServicesByReasonPoolsAndTheLeaderAndTheAlertsFireOnThem(@TempDir Path dir) throws Exception {
        mock.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
                .andReturn(201, new SelfSubjectRulesReviewBuilder().withNewStatus().withIncomplete(false)
                        .addNewResourceRule().withApiGroups("coordination.k8s.io").withResources("leases")
                        .withVerbs("create", "update", "get").endResourceRule().endStatus().build())
                .always();
        try (var crd = Files.newInputStream(Path.of("../deploy/eippool-crd.yaml"))) {
            kube.load(crd).create();
        }
        // A pool of one address: the second Service waits for it.
        kube.resource(Serialization.unmarshal("""
                apiVersion: ovnj.dev/v1alpha1
                kind: EipPool
                metadata: {name: tiny}
                spec: {router: %s, externalPort: %s, switch: %s, addresses: ["%s"]}
                """.formatted(ROUTER, EXTERNAL_PORT, SWITCH, FIRST_EIP), EipPool.class)).create();

        ControllerSettings leased = settings().withLease(NAMESPACE, "ovnj-metrics");
        PrometheusMeterRegistry metersA = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        PrometheusMeterRegistry metersB = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Replica a = replica(leased, b -> b.identity("a").meterRegistry(metersA)
                .leaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500)));
        Replica b = replica(leased, r -> r.identity("b").meterRegistry(metersB)
                .leaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500)));
        try (ControllerEndpoints endA = ControllerEndpoints.start(new InetSocketAddress("127.0.0.1", 0), metersA, a.controller());
             ControllerEndpoints endB = ControllerEndpoints.start(new InetSocketAddress("127.0.0.1", 0), metersB, b.controller())) {
            // Every reason has its series from the first scrape, before any Service exists.
            for (ControllerEndpoints e : List.of(endA, endB)) {
                List<Sample> first = scrape(e);
                for (String reason : ConditionReasons.ALL) {
                    assertThat(value(first, "ovnj_kubernetes_services", "reason=\"" + reason + "\"")).as(reason).isZero();
                }
            }
            Await.until(WAIT, "a leader", () -> a.controller().isLeader() || b.controller().isLeader());
            ControllerEndpoints holder = a.controller().isLeader() ? endA : endB;
            ControllerEndpoints standby = holder == endA ? endB : endA;

            kube.resource(loadBalancer("web")).create();
            Await.until(WAIT, "web APPLIED", () -> reason("web").equals("APPLIED"));
            kube.resource(loadBalancer("api")).create();
            Service bad = loadBalancer("bad");
            bad.getMetadata().setAnnotations(Map.of(ServiceAnnotations.ADOPT, "owner:nobody"));
            kube.resource(bad).create();
            Service dup = loadBalancer("dup");
            dup.getMetadata().setAnnotations(Map.of(ServiceAnnotations.ADDRESSES, FIRST_EIP));
            kube.resource(dup).create();
            Await.until(WAIT, "every Service has a condition", () -> List.of("api", "bad", "dup").stream().noneMatch(s -> reason(s).isEmpty()));
            Map<String, Long> truth = new TreeMap<>();
            for (String s : List.of("web", "api", "bad", "dup")) {
                truth.merge(reason(s), 1L, Long::sum);
            }
            assertThat(reason("bad")).isEqualTo(ConditionReasons.INVALID_ANNOTATION);
            assertThat(truth.keySet().stream().filter(r -> !r.equals("APPLIED")).count()).as("refusal reasons " + truth)
                    .isGreaterThanOrEqualTo(2);

            // Both replicas count the Services by the reasons the holder wrote.
            for (ControllerEndpoints e : List.of(holder, standby)) {
                Await.until(WAIT, "the gauge of Services by reason says " + truth, () -> {
                    List<Sample> now = scrape(e);
                    return ConditionReasons.ALL.stream().allMatch(r -> value(now, "ovnj_kubernetes_services", "reason=\"" + r + "\"")
                            == truth.getOrDefault(r, 0L));
                });
            }
            Await.until(WAIT, "the pool's numbers on the holder", () -> {
                List<Sample> now = scrape(holder);
                return value(now, "ovnj_kubernetes_pool_addresses", "pool=\"tiny\",state=\"allocated\"") == 1
                        && value(now, "ovnj_kubernetes_pool_addresses", "pool=\"tiny\",state=\"free\"") == 0
                        && value(now, "ovnj_kubernetes_pool_waiting", "pool=\"tiny\"") >= 1;
            });
            List<Sample> h = scrape(holder);
            List<Sample> s = scrape(standby);
            assertThat(value(h, "ovnj_kubernetes_leader", "")).isEqualTo(1);
            assertThat(value(s, "ovnj_kubernetes_leader", "")).isZero();
            assertThat(value(s, "ovnj_kubernetes_queue_depth", "")).isZero();
            assertThat(h).anyMatch(x -> x.name().equals("ovnj_kubernetes_queue_depth"));
            assertThat(value(h, "ovnj_kubernetes_reconcile_seconds_count", "result=\"ready\"")).isPositive();
            assertThat(value(h, "ovnj_kubernetes_reconcile_seconds_count", "result=\"not_ready\"")).isPositive();
            assertThat(value(h, "ovnj_kubernetes_reconcile_errors_total", "reason=\"InvalidAnnotation\"")).isPositive();
            assertThat(value(s, "ovnj_kubernetes_reconcile_errors_total", "reason=\"InvalidAnnotation\"")).as("a standby reconciles nothing")
                    .isZero();
            promtool(dir, h, s, truth);
        }
    }

    /** The alerts of deploy/monitoring/, through promtool, on the series the two replicas exported. */
    private static void promtool(Path dir, List<Sample> holder, List<Sample> standby, Map<String, Long> truth) throws Exception {
        Assumptions.assumeTrue(onPath("promtool"), "promtool is not installed (Debian package prometheus): alerts not tested");
        @SuppressWarnings("unchecked")
        Map<String, Object> rule = Serialization.unmarshal(Files.readString(Path.of("../deploy/monitoring/prometheusrule.yaml")), Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) rule.get("spec");
        Files.writeString(dir.resolve("rules.yaml"), Serialization.asYaml(spec));
        Map<String, Map<String, String>> annotations = new LinkedHashMap<>();
        Pattern metric = Pattern.compile("ovnj_[a-z_]+");
        for (Object g : (List<?>) spec.get("groups")) {
            for (Object r : (List<?>) ((Map<?, ?>) g).get("rules")) {
                Map<?, ?> alert = (Map<?, ?>) r;
                @SuppressWarnings("unchecked")
                Map<String, String> a = (Map<String, String>) alert.get("annotations");
                annotations.put((String) alert.get("alert"), a);
                Matcher m = metric.matcher((String) alert.get("expr"));
                while (m.find()) {
                    String name = m.group();
                    assertThat(holder).as("the holder exports " + name + ", which alert " + alert.get("alert") + " reads")
                            .anyMatch(x -> x.name().equals(name));
                }
            }
        }
        assertThat(annotations).containsOnlyKeys("OvnjEipPoolNearlyExhausted", "OvnjServicesNotReady", "OvnjNoLeader",
                "OvnjBackendsUnhealthy");
        List<String> names = List.of("ovnj_kubernetes_pool_addresses", "ovnj_kubernetes_services", "ovnj_kubernetes_leader",
                "ovnj_engine_specs_operating");

        // As scraped: the pool is exhausted and Services are refused; one leader, healthy backends.
        List<Map<String, Object>> asScraped = new ArrayList<>();
        List<Map<String, Object>> failing = new ArrayList<>();
        for (var replica : List.of(Map.entry("holder", holder), Map.entry("standby", standby))) {
            for (Sample x : replica.getValue()) {
                if (!names.contains(x.name())) {
                    continue;
                }
                asScraped.add(Map.of("series", x.series(replica.getKey()), "values", format(x.value()) + "x20"));
                double broken = x.name().equals("ovnj_kubernetes_leader") ? 0
                        : x.name().equals("ovnj_engine_specs_operating") && x.labels().contains("status=\"degraded\"") ? 1 : x.value();
                failing.add(Map.of("series", x.series(replica.getKey()), "values", format(broken) + "x20"));
            }
        }
        List<Map<String, Object>> notReady = new ArrayList<>();
        truth.forEach((reason, count) -> {
            if (!reason.equals("APPLIED")) {
                notReady.add(expected(annotations.get("OvnjServicesNotReady"), Map.of("severity", "warning", "reason", reason)));
            }
        });
        String owner = holder.stream().filter(x -> x.name().equals("ovnj_engine_specs_operating")).map(Sample::labels)
                .map(l -> l.replaceAll(".*owner=\"([^\"]*)\".*", "$1")).findFirst().orElseThrow();
        List<Map<String, Object>> asScrapedTests = List.of(
                alertTest("11m", "OvnjEipPoolNearlyExhausted", List.of(expected(annotations.get("OvnjEipPoolNearlyExhausted"),
                        Map.of("severity", "warning", "pool", "tiny")))),
                alertTest("6m", "OvnjServicesNotReady", notReady),
                alertTest("3m", "OvnjNoLeader", List.of()),
                alertTest("6m", "OvnjBackendsUnhealthy", List.of()));
        List<Map<String, Object>> failingTests = List.of(
                alertTest("3m", "OvnjNoLeader", List.of(expected(annotations.get("OvnjNoLeader"), Map.of("severity", "critical")))),
                alertTest("6m", "OvnjBackendsUnhealthy", List.of(expected(annotations.get("OvnjBackendsUnhealthy"),
                        Map.of("severity", "warning", "owner", owner, "status", "degraded")))));
        Map<String, Object> test = Map.of(
                "rule_files", List.of("rules.yaml"),
                "evaluation_interval", "1m",
                "tests", List.of(
                        Map.of("interval", "1m", "input_series", asScraped, "alert_rule_test", asScrapedTests),
                        Map.of("interval", "1m", "input_series", failing, "alert_rule_test", failingTests)));
        Path testFile = dir.resolve("test.yaml");
        Files.writeString(testFile, Serialization.asYaml(test));
        Process p = new ProcessBuilder("promtool", "test", "rules", testFile.getFileName().toString()).directory(dir.toFile())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out + "\n" + Files.readString(testFile)).isZero();
        assertThat(out).contains("SUCCESS");
    }

    private static Map<String, Object> alertTest(String at, String alert, List<Map<String, Object>> expected) {
        return Map.of("eval_time", at, "alertname", alert, "exp_alerts", expected);
    }

    /** An expected alert: its labels, and its annotations with the labels' values put in. */
    private static Map<String, Object> expected(Map<String, String> annotations, Map<String, String> labels) {
        Map<String, String> rendered = new LinkedHashMap<>();
        annotations.forEach((k, v) -> {
            String text = v;
            for (var l : labels.entrySet()) {
                text = text.replace("{{ $labels." + l.getKey() + " }}", l.getValue());
            }
            rendered.put(k, text);
        });
        return Map.of("exp_labels", labels, "exp_annotations", rendered);
    }

    private static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private String reason(String service) {
        return condition(service).map(c -> c.getReason()).orElse("");
    }

    private static List<Sample> scrape(ControllerEndpoints endpoints) {
        HttpResponse<String> r;
        try {
            r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.address().getPort() + "/metrics"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertThat(r.statusCode()).isEqualTo(200);
        List<Sample> out = new ArrayList<>();
        for (String line : r.body().split("\n")) {
            Matcher m = SAMPLE.matcher(line.trim());
            if (!line.startsWith("#") && m.matches()) {
                String labels = m.group(2) == null ? "" : m.group(2).replaceAll(",$", "");
                out.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
            }
        }
        return out;
    }

    /** The value of the series whose labels contain {@code labels}, -1 when there is none. */
    private static double value(List<Sample> samples, String name, String labels) {
        return samples.stream().filter(x -> x.name().equals(name) && x.labels().contains(labels)).mapToDouble(Sample::value)
                .findFirst().orElse(-1);
    }

    private static boolean onPath(String command) {
        return java.util.Arrays.stream(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, command)));
    }
}
