package dev.ovnj.kubernetes;

import static dev.ovnj.kubernetes.Kube.NAMESPACE;
import static dev.ovnj.kubernetes.Kube.loadBalancer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.testkit.Await;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Many Services created at once: one controller allocates without racing with itself, so every
 * Service gets its own address with no {@code AddressFailed}, and one APPLIED Event.
 */
@EnableKubernetesMockClient(crud = true)
class ServiceBurstIT extends ControllerTestBase {
    private static final int SERVICES = 300;

    @Test
    void aBurstOfServicesConvergesWithoutAddressFailuresAndOneAppliedEventEach() {
        nbctl.run("lrp-add", ROUTER, "big-ext", "02:00:00:00:00:02", "10.100.0.1/23");
        controller(ControllerSettings.of(ROUTER, "big-ext").withSwitch(SWITCH).withServerSideApply(false)
                .withRetryAfter(Duration.ofSeconds(2)), b -> b);
        long start = System.nanoTime();
        for (int i = 0; i < SERVICES; i++) {
            kube.resource(loadBalancer("svc-" + i)).create();
        }
        Await.until(Duration.ofMinutes(5), SERVICES + " Services served", () -> kube.services().inNamespace(NAMESPACE).list().getItems()
                .stream().filter(s -> LoadBalancerCondition.current(s).map(c -> c.getStatus().equals("True")).orElse(false)
                        && s.getStatus().getLoadBalancer().getIngress().size() == 1).count() == SERVICES);
        System.out.printf("MEASURE burst of %d Services: all served in %.1f s (loaded machine)%n", SERVICES,
                (System.nanoTime() - start) / 1e9);

        Map<String, String> byIp = new HashMap<>();
        for (Service s : kube.services().inNamespace(NAMESPACE).list().getItems()) {
            String ip = s.getStatus().getLoadBalancer().getIngress().get(0).getIp();
            assertThat(byIp.put(ip, s.getMetadata().getName())).as("%s given twice", ip).isNull();
        }
        List<Event> events = kube.v1().events().inNamespace(NAMESPACE).list().getItems();
        assertThat(events).filteredOn(e -> e.getType().equals("Warning")).extracting(Event::getReason).doesNotContain("AddressFailed");
        Map<String, Long> applied = events.stream().filter(e -> e.getReason().equals("APPLIED"))
                .collect(Collectors.groupingBy(e -> e.getInvolvedObject().getName(), Collectors.counting()));
        assertThat(applied).hasSize(SERVICES);
        assertThat(applied.values()).containsOnly(1L);
        System.out.printf("MEASURE burst of %d Services: %d Events in all, %d of them Warnings%n", SERVICES, events.size(),
                events.stream().filter(e -> e.getType().equals("Warning")).count());
    }
}
