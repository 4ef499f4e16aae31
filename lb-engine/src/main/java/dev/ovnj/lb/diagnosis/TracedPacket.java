package dev.ovnj.lb.diagnosis;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One packet's way through the logical pipelines as {@code ovn-trace --detailed} prints it, read by
 * structure rather than by text: the {@code ingress(dp="...")}/{@code egress(dp="...")} section
 * headers, the numbered logical-flow lines ({@code N. STAGE (SOURCE): MATCH, priority P, uuid U};
 * the source part is optional), the actions under each, and the {@code output to "PORT"} comments.
 * Stage names, table numbers and registers differ between OVN releases; none is matched here.
 *
 * @param steps the logical flows the packet hit, in order
 * @param outputs the logical ports it was output to, in order
 */
record TracedPacket(List<Step> steps, List<String> outputs) {
    private static final Pattern SECTION = Pattern.compile("^(ingress|egress)\\(dp=\"([^\"]*)\"");
    private static final Pattern FLOW = Pattern.compile(
            "^\\s*\\d+\\.\\s+(\\S+?)(?:\\s+\\([^)]*\\))?:\\s+(.*),\\s+priority\\s+(\\d+),\\s+uuid\\s+([0-9a-fA-F]+)\\s*$");
    private static final Pattern OUTPUT = Pattern.compile("/\\*\\s*output to \"([^\"]+)\"");
    private static final Pattern REJECT = Pattern.compile("(^|[\\s;{])reject\\b");
    private static final Pattern AFFINITY_CHECK = Pattern.compile("(\\S+)\\s*=\\s*chk_lb_aff\\(\\)");

    TracedPacket {
        steps = List.copyOf(steps);
        outputs = List.copyOf(outputs);
    }

    /**
     * One logical flow the packet hit.
     *
     * @param datapath the switch or router (ovn-trace's friendly name)
     * @param pipeline {@code ingress} or {@code egress}
     * @param stage the stage name, e.g. {@code ls_out_acl_eval}
     * @param match the flow's match
     * @param priority the flow's priority
     * @param flow the first hex digits of the Logical_Flow's uuid
     * @param actions the actions ovn-trace printed under it, one per line
     */
    record Step(String datapath, String pipeline, String stage, String match, int priority, String flow, String actions) {
        /** The stage without its last word for four-word names: {@code ls_out_acl_eval} and {@code ls_out_acl_action} are one family. */
        String family() {
            String[] words = stage.split("_");
            return words.length <= 3 ? stage : String.join("_", words[0], words[1], words[2]);
        }

        boolean rejects() {
            return REJECT.matcher(actions).find();
        }
    }

    /** Reads {@code ovn-trace --detailed} output. */
    static TracedPacket parse(String text) {
        List<Step> steps = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        String datapath = "";
        String pipeline = "";
        Step open = null;
        StringBuilder actions = new StringBuilder();
        for (String line : text.split("\n")) {
            Matcher section = SECTION.matcher(line);
            Matcher flow = FLOW.matcher(line);
            Matcher output = OUTPUT.matcher(line);
            if (output.find()) {
                outputs.add(output.group(1));
            }
            if (section.find() || flow.find()) {
                if (open != null) {
                    steps.add(withActions(open, actions));
                    open = null;
                }
                if (section.find(0)) {
                    pipeline = section.group(1);
                    datapath = section.group(2);
                } else {
                    open = new Step(datapath, pipeline, flow.group(1), flow.group(2), Integer.parseInt(flow.group(3)),
                            flow.group(4).toLowerCase(java.util.Locale.ROOT), "");
                    actions.setLength(0);
                }
            } else if (open != null && !line.isBlank()) {
                actions.append(line.trim()).append('\n');
            }
        }
        if (open != null) {
            steps.add(withActions(open, actions));
        }
        return new TracedPacket(steps, outputs);
    }

    private static Step withActions(Step s, StringBuilder actions) {
        return new Step(s.datapath(), s.pipeline(), s.stage(), s.match(), s.priority(), s.flow(), actions.toString());
    }

    /**
     * Whether the packet's way ends at the learning of a session-affinity backend: OVN's
     * {@code lb_aff_learn} stage runs {@code commit_lb_aff(...)} with no {@code next}, so the first
     * packet of a client's new session ends there by design (the learned flow sends the client's
     * later packets, and its retransmission, to that backend), and {@code ovn-trace} stops there too.
     */
    boolean endsLearningAffinity() {
        return !steps.isEmpty() && steps.get(steps.size() - 1).actions().contains("commit_lb_aff(");
    }

    /**
     * The register bit the affinity check stage loads with {@code chk_lb_aff()} (e.g.
     * {@code reg9[6]}), which says that the client has a learned backend.
     */
    Optional<String> affinityBit() {
        for (Step s : steps) {
            Matcher m = AFFINITY_CHECK.matcher(s.actions());
            if (m.find()) {
                return Optional.of(m.group(1));
            }
        }
        return Optional.empty();
    }

    /** The step that ended the packet's way: the first that rejects it, else the last one. */
    Optional<Step> terminal() {
        for (Step s : steps) {
            if (s.rejects()) {
                return Optional.of(s);
            }
        }
        return steps.isEmpty() ? Optional.empty() : Optional.of(steps.get(steps.size() - 1));
    }

    /**
     * The terminal step and, walking back, the earlier steps of its datapath, pipeline and stage
     * family: where an ACL's verdict is taken in one stage and carried out in the next (OVN 23.09 on:
     * {@code acl_eval} sets a register, {@code acl_action} drops), the flow naming the ACL is the earlier one.
     */
    List<Step> culprits() {
        Optional<Step> end = terminal();
        if (end.isEmpty()) {
            return List.of();
        }
        Step t = end.get();
        List<Step> out = new ArrayList<>();
        for (int i = steps.indexOf(t); i >= 0; i--) {
            Step s = steps.get(i);
            if (!s.datapath().equals(t.datapath()) || !s.pipeline().equals(t.pipeline()) || !s.family().equals(t.family())) {
                break;
            }
            out.add(s);
        }
        return out;
    }
}
