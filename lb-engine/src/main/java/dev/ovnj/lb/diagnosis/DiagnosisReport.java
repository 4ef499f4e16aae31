package dev.ovnj.lb.diagnosis;

import java.util.List;

/**
 * The outcome of one diagnosis: its findings (root causes only), how many load balancers were
 * checked, and which checks could not run.
 *
 * @param findings the findings, grouped by load balancer in the order they were checked
 * @param checked how many load balancers (specs) were checked
 * @param skipped checks that did not run, with the reason
 */
public record DiagnosisReport(List<Finding> findings, int checked, List<SkippedCheck> skipped) {

    /**
     * Copies the lists.
     *
     * @param findings the findings
     * @param checked how many load balancers were checked
     * @param skipped checks that did not run
     */
    public DiagnosisReport {
        findings = List.copyOf(findings);
        skipped = List.copyOf(skipped);
    }

    /**
     * How many findings are errors.
     *
     * @return the error count
     */
    public long errors() {
        return findings.stream().filter(f -> f.severity() == Severity.ERROR).count();
    }

    /**
     * How many findings are warnings.
     *
     * @return the warning count
     */
    public long warnings() {
        return findings.stream().filter(f -> f.severity() == Severity.WARNING).count();
    }

    /**
     * How many findings are scale advice.
     *
     * @return the advice count
     */
    public long advice() {
        return findings.stream().filter(f -> f.severity() == Severity.ADVICE).count();
    }

    /**
     * Whether no finding is an error.
     *
     * @return true when healthy (warnings allowed)
     */
    public boolean healthy() {
        return errors() == 0;
    }

    /**
     * The findings of one code.
     *
     * @param code the code
     * @return the findings with that code
     */
    public List<Finding> withCode(FindingCode code) {
        return findings.stream().filter(f -> f.code() == code).toList();
    }
}
