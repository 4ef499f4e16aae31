package dev.ovnj.lb.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointTest {

    @Test
    void plainIpv4IsParsedWithoutTheGeneralPath() throws Exception {
        Endpoint e = Endpoint.parse("10.0.0.1:8080");
        assertThat(e.address()).isEqualTo(InetAddress.getByName("10.0.0.1"));
        assertThat(e.port()).isEqualTo(8080);
        assertThat(e.toString()).isEqualTo("10.0.0.1:8080");
        assertThat(Endpoint.parse("255.255.255.255").port()).isZero();
        assertThat(Endpoint.parse("0.0.0.0:1").toString()).isEqualTo("0.0.0.0:1");
        assertThat(Endpoint.parse("1.2.3.4:65535").port()).isEqualTo(65535);
    }

    @Test
    void normalizeAgreesWithParseForEveryForm() {
        for (String text : List.of("10.0.0.1:80", "10.0.0.1", "172.20.3.251:80", " 10.0.0.1:80", "10.0.0.1:080",
                "[2a01:4f8:0:0::10]:443", "[2A01:4F8::10]:443", "[fd00::1]", "0.0.0.0:1", "9.9.9.9:65535")) {
            String canonical = Endpoint.parse(text).toString();
            assertThat(Endpoint.normalize(text)).as(text).isEqualTo(canonical);
        }
    }

    @Test
    void canonicalTextIsReturnedAsIs() {
        String text = "192.168.10.20:443";
        assertThat(Endpoint.normalize(text)).isSameAs(text);
    }

    @Test
    void malformedIpv4IsRefusedWithTheReason() {
        assertThatThrownBy(() -> Endpoint.parse("10.0.0.256:80")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an IPv4 address");
        assertThatThrownBy(() -> Endpoint.parse("10.0.0.1:0")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> Endpoint.parse("10.0.0.1:65536")).hasMessageContaining("out of range");
        assertThatThrownBy(() -> Endpoint.parse("10.0.0.1:")).hasMessageContaining("is not a number");
        assertThatThrownBy(() -> Endpoint.parse("10.0.0:80")).hasMessageContaining("not an IPv4 address");
        assertThatThrownBy(() -> Endpoint.parse("10.0.0.1.5:80")).hasMessageContaining("not an IPv4 address");
        assertThatThrownBy(() -> Endpoint.parse("1000.0.0.1:80")).hasMessageContaining("not an IPv4 address");
        assertThatThrownBy(() -> Endpoint.parse("10.0.0.1:80x")).hasMessageContaining("is not a number");
        assertThatThrownBy(() -> Endpoint.normalize("web:80")).hasMessageContaining("not an IPv4 address");
        assertThatThrownBy(() -> Endpoint.parse("")).hasMessageContaining("empty address");
    }
}
