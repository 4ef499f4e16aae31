package dev.ovnj.lb;

import java.util.Optional;
import java.util.UUID;

/**
 * What a spec in {@link SpecStatus.State#CONFLICT} collides with: a row in the database that the
 * engine does not own (it is never touched), or another owner's spec declared first.
 *
 * @param table the table, {@code Load_Balancer} (or {@code desired} for a spec not yet written)
 * @param name the conflicting row's name (or {@code <spec>-<protocol>} of the other owner's spec)
 * @param uuid the row's UUID, empty for a spec not yet written
 * @param owner the other row's {@code ovnj.owner}, empty when another client owns it
 * @param vip the VIP both claim, with its protocol (e.g. {@code tcp 10.0.0.1:80}); empty for a name conflict
 * @param target where both would serve it (e.g. {@code router lr0}); empty for a name conflict
 */
public record ConflictingRow(String table, String name, Optional<UUID> uuid, Optional<String> owner, String vip,
                             String target) {

    /**
     * One line, e.g. {@code load balancer kube-lb (uuid ..., another client) serves tcp 10.0.0.1:80 on router lr0}.
     *
     * @return the description
     */
    public String describe() {
        String who = owner.map(o -> "owner " + o).orElse("another client");
        String row = ("desired".equals(table) ? "spec row " : "load balancer ") + name
                + uuid.map(u -> " (uuid " + u + ", " + who + ")").orElse(" (" + who + ", not yet written)");
        // OVN's Load_Balancer names are one namespace for every client; the engine names a spec's
        // rows <spec>-<protocol>, so two owners' specs of one name collide: say how to get out.
        return vip.isEmpty() ? row + " already has this name (Load_Balancer names are global across owners: rename the spec,"
                + " e.g. prefix it with its owner)" : row + " already serves " + vip + " on " + target;
    }
}
