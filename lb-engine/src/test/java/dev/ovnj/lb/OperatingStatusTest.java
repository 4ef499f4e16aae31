package dev.ovnj.lb;

import static dev.ovnj.lb.BackendHealth.ERROR;
import static dev.ovnj.lb.BackendHealth.OFFLINE;
import static dev.ovnj.lb.BackendHealth.ONLINE;
import static dev.ovnj.lb.BackendHealth.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ovnj.lb.spec.HealthCheck;
import dev.ovnj.lb.spec.LoadBalancerSpec;
import dev.ovnj.lb.spec.VipSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The roll-up rules: a VIP from its backends, a spec the worst of its VIPs. */
class OperatingStatusTest {

    @Test
    void aVipTakesTheStateOfItsBackends() {
        assertThat(OperatingStatus.ofVip(true, List.of(ONLINE, ONLINE))).isEqualTo(OperatingStatus.ONLINE);
        assertThat(OperatingStatus.ofVip(true, List.of(ONLINE, OFFLINE))).isEqualTo(OperatingStatus.DEGRADED);
        assertThat(OperatingStatus.ofVip(true, List.of(ONLINE, UNKNOWN))).isEqualTo(OperatingStatus.DEGRADED);
        assertThat(OperatingStatus.ofVip(true, List.of(OFFLINE, ERROR))).isEqualTo(OperatingStatus.ERROR);
        assertThat(OperatingStatus.ofVip(true, List.of(OFFLINE, UNKNOWN))).isEqualTo(OperatingStatus.UNKNOWN);
        assertThat(OperatingStatus.ofVip(true, List.of())).isEqualTo(OperatingStatus.OFFLINE);
        assertThat(OperatingStatus.ofVip(false, List.of(OFFLINE))).isEqualTo(OperatingStatus.NO_MONITOR);
        assertThat(OperatingStatus.ofVip(false, List.of())).isEqualTo(OperatingStatus.OFFLINE);
    }

    @Test
    void aSpecTakesTheWorstOfItsVips() {
        assertThat(OperatingStatus.worst(List.of(OperatingStatus.ONLINE, OperatingStatus.NO_MONITOR))).isEqualTo(OperatingStatus.NO_MONITOR);
        assertThat(OperatingStatus.worst(List.of(OperatingStatus.DEGRADED, OperatingStatus.OFFLINE))).isEqualTo(OperatingStatus.OFFLINE);
        assertThat(OperatingStatus.worst(List.of(OperatingStatus.OFFLINE, OperatingStatus.UNKNOWN))).isEqualTo(OperatingStatus.UNKNOWN);
        assertThat(OperatingStatus.worst(List.of(OperatingStatus.UNKNOWN, OperatingStatus.ERROR))).isEqualTo(OperatingStatus.ERROR);
        assertThat(OperatingStatus.worst(List.of())).isEqualTo(OperatingStatus.OFFLINE);
    }

    @Test
    void vipsAreKeyedLikeBackendsAndAnUncheckedVipHasNoMonitor() {
        LoadBalancerSpec spec = LoadBalancerSpec.builder("dns")
                .vip(VipSpec.tcp("10.96.0.10:53", "10.0.0.5:53").withHealthCheck(HealthCheck.DEFAULTS))
                .vip(VipSpec.udp("10.96.0.10:53", "10.0.0.5:53"))
                .build();
        assertThat(OperatingStatus.ofVips(spec, Map.of("10.0.0.5:53", OFFLINE))).isEqualTo(Map.of(
                "10.96.0.10:53", OperatingStatus.ERROR, "10.96.0.10:53/udp", OperatingStatus.NO_MONITOR));
        assertThat(ONLINE.operatingStatus()).isEqualTo(OperatingStatus.ONLINE);
        assertThat(OFFLINE.operatingStatus()).isEqualTo(OperatingStatus.ERROR);
    }
}
