package dev.ovnj.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ovnj.lb.diagnosis.DiagnosisReport;
import dev.ovnj.lb.diagnosis.Finding;
import dev.ovnj.lb.diagnosis.FindingCode;
import dev.ovnj.lb.diagnosis.SkippedCheck;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The text and JSON shapes of {@code ovnj doctor}'s report. */
class DoctorOutputTest {
    private static final DiagnosisReport REPORT = new DiagnosisReport(List.of(
            new Finding(FindingCode.NO_LFLOW, "web", Optional.of("1.2.3.4:80"), "no flow", "read the log"),
            new Finding(FindingCode.BACKEND_NO_PORT, "api", Optional.of("1.2.3.5:80"), "no port", "fix addresses"),
            new Finding(FindingCode.CONFLICT, "web", Optional.empty(), "two", "remove one"),
            new Finding(FindingCode.NO_GATEWAY_CHASSIS, "web", Optional.empty(), "router lr0 has none", "add one",
                    List.of("web", "api"))),
            3, List.of(new SkippedCheck(FindingCode.TRACE_MISMATCH, "not requested (--trace)")));

    @Test
    void textGroupsByLoadBalancerAndEndsWithTheSummary() {
        assertThat(DoctorOutput.text(REPORT)).containsExactly(
                "web:",
                "  error no-lflow 1.2.3.4:80: no flow (fix: read the log)",
                "  error conflict: two (fix: remove one)",
                "  error no-gateway-chassis: router lr0 has none (fix: add one)",
                "api:",
                "  warning backend-no-port 1.2.3.5:80: no port (fix: fix addresses)",
                "skipped trace-mismatch: not requested (--trace)",
                "3 load balancers checked, 3 errors, 1 warnings");
    }

    @Test
    void jsonHasEveryFieldAndNullForNoVip() throws Exception {
        JsonNode root = new ObjectMapper().readTree(String.join("", DoctorOutput.json(REPORT)));
        assertThat(root.get("checked").asInt()).isEqualTo(3);
        assertThat(root.get("findings")).hasSize(4);
        JsonNode first = root.get("findings").get(0);
        assertThat(first.get("code").asText()).isEqualTo("no-lflow");
        assertThat(first.get("severity").asText()).isEqualTo("error");
        assertThat(first.get("lb").asText()).isEqualTo("web");
        assertThat(first.get("lbs")).extracting(JsonNode::asText).containsExactly("web");
        assertThat(first.get("vip").asText()).isEqualTo("1.2.3.4:80");
        assertThat(first.get("message").asText()).isEqualTo("no flow");
        assertThat(first.get("fix").asText()).isEqualTo("read the log");
        assertThat(root.get("findings").get(2).get("vip").isNull()).isTrue();
        assertThat(root.get("findings").get(1).get("severity").asText()).isEqualTo("warning");
        assertThat(root.get("findings").get(3).get("lbs")).extracting(JsonNode::asText).containsExactly("web", "api");
        assertThat(root.get("skipped").get(0).get("code").asText()).isEqualTo("trace-mismatch");
    }
}
