package dev.ovnj.lb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ovnj.ovsdb.client.OvsdbClient;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The request timeout's default and validation; no server needed (the client is never started). */
class RequestTimeoutTest {

    private static OvsdbClient client() {
        return OvsdbClient.builder().remotes("tcp:127.0.0.1:9").build();
    }

    @Test
    void defaultsToThirtySeconds() {
        try (OvsdbClient client = client(); LoadBalancerEngine engine = LoadBalancerEngine.builder(client).build()) {
            assertThat(engine.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
        }
    }

    @Test
    void keepsAPositiveTimeout() {
        try (OvsdbClient client = client();
             LoadBalancerEngine engine = LoadBalancerEngine.builder(client).requestTimeout(Duration.ofMillis(1500)).build()) {
            assertThat(engine.requestTimeout()).isEqualTo(Duration.ofMillis(1500));
        }
    }

    @Test
    void rejectsZeroNegativeAndNull() {
        try (OvsdbClient client = client()) {
            LoadBalancerEngine.Builder b = LoadBalancerEngine.builder(client);
            assertThatThrownBy(() -> b.requestTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("requestTimeout must be positive").hasMessageContaining("PT0S");
            assertThatThrownBy(() -> b.requestTimeout(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("requestTimeout must be positive").hasMessageContaining("PT-1S");
            assertThatThrownBy(() -> b.requestTimeout(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("timeout");
        }
    }
}
