package dev.ovnj.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ovnj.lb.plan.LoadBalancerPlan;
import dev.ovnj.lb.plan.PlanChange;
import java.util.List;
import java.util.Locale;

/**
 * {@code ovnj diff --output json}: the plan reconcile would carry out. Shape (version 1):
 * {@code {kind:"diff", version, owner, inSync, changes:[{type, subject, text}], pending:{SPEC:
 * [REASON...]}, conflicts:[TEXT...], invalid:{SPEC:[ERROR...]}, held:{SPEC:REASON}, problems:[LINE...]}}.
 * {@code held} lists the specs whose rows reconcile would keep although the file no longer names
 * them (the deletion budget). {@code type}
 * is one of adopt (a row of another owner or of none taken over in place, with {@code --adopt}),
 * create-row, update-vips, set-columns, attach, detach, create-group, attach-group, delete-row, and
 * the health check and policy changes; {@code text} is the line the text output prints.
 */
final class DiffJson {

    private DiffJson() {
    }

    /**
     * Builds the document.
     *
     * @param plan the plan
     * @param problems validation problems of the desired-state file, one line each
     * @return the document
     */
    static ObjectNode of(LoadBalancerPlan plan, List<String> problems) {
        ObjectNode root = JsonDocument.start("diff");
        root.put("owner", plan.owner());
        root.put("inSync", plan.isEmpty() && plan.pending().isEmpty() && plan.held().isEmpty() && plan.invalid().isEmpty());
        ArrayNode changes = root.putArray("changes");
        for (PlanChange c : plan.changes()) {
            ObjectNode o = changes.addObject();
            o.put("type", type(c));
            o.put("subject", c.subject());
            o.put("text", c.toString());
        }
        JsonDocument.stringLists(root, "pending", plan.pending());
        ObjectNode held = root.putObject("held");
        plan.held().forEach(held::put);
        JsonDocument.strings(root, "conflicts", plan.conflicts());
        JsonDocument.stringLists(root, "invalid", plan.invalid());
        JsonDocument.strings(root, "problems", problems);
        return root;
    }

    /** CreateRow becomes create-row: stable as long as the change types keep their names. */
    static String type(PlanChange change) {
        return change.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
