package dev.ovnj.testkit.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.testkit.OvsdbServer;
import dev.ovnj.testkit.RawRpc;
import dev.ovnj.testkit.ResourceGauge;
import dev.ovnj.testkit.StderrCapture;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FaultProxyIT {
    static OvsdbServer server;

    @BeforeAll
    static void startServer() {
        server = OvsdbServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void blackholeStopsTrafficAndHealResumesIt() throws Exception {
        try (FaultProxy proxy = FaultProxy.to(server); RawRpc rpc = new RawRpc(proxy.port())) {
            assertThat(rpc.echo(2000)).isTrue();
            proxy.blackhole();
            assertThat(rpc.echo(700)).as("echo through a blackhole").isFalse();
            assertThat(proxy.openSockets()).as("sockets stay open in a partition").isEqualTo(2);
            proxy.heal();
            assertThat(rpc.awaitText("probe-2", 5000)).as("held request answered after heal").isTrue();
            assertThat(rpc.echo(2000)).isTrue();
        }
    }

    @Test
    void latencyDelaysBothDirections() throws Exception {
        try (FaultProxy proxy = FaultProxy.to(server); RawRpc rpc = new RawRpc(proxy.port())) {
            assertThat(rpc.echo(2000)).isTrue();
            proxy.latency(Duration.ofMillis(200));
            long start = System.nanoTime();
            assertThat(rpc.echo(5000)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        }
    }

    @Test
    void resetAllDropsConnections() throws Exception {
        try (FaultProxy proxy = FaultProxy.to(server); RawRpc rpc = new RawRpc(proxy.port())) {
            assertThat(rpc.echo(2000)).isTrue();
            proxy.resetAll();
            assertThatThrownBy(() -> {
                for (int i = 0; i < 10; i++) {
                    rpc.echo(500);
                }
            }).isInstanceOf(IOException.class);
        }
    }

    @Test
    void refuseNewThenHeal() throws Exception {
        try (FaultProxy proxy = FaultProxy.to(server); RawRpc open = new RawRpc(proxy.port())) {
            assertThat(open.echo(2000)).isTrue();
            proxy.refuseNew();
            assertThatThrownBy(() -> new RawRpc(proxy.port())).isInstanceOf(ConnectException.class);
            assertThat(open.echo(2000)).as("existing connection keeps working").isTrue();
            proxy.heal();
            try (RawRpc again = new RawRpc(proxy.port())) {
                assertThat(again.echo(2000)).isTrue();
            }
        }
    }

    @Test
    void bytesHeldBackByLatencyAreReleasedWhenTheProxyCloses() throws Exception {
        ResourceGauge.paranoidLeakDetection();
        try (StderrCapture err = StderrCapture.start()) {
            ResourceGauge.proveLeakReportsAreCaptured(err);
            try (FaultProxy proxy = FaultProxy.to(server); RawRpc rpc = new RawRpc(proxy.port())) {
                assertThat(rpc.echo(2000)).isTrue();
                proxy.latency(Duration.ofSeconds(30));
                assertThat(rpc.echo(300)).as("the request is held back").isFalse();
            }
            ResourceGauge.flushLeakReports();
            assertThat(err.text()).doesNotContain("LEAK:");
        }
    }
}
