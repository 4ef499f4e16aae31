package dev.ovnj.cli;

import dev.ovnj.lb.Adoption;
import dev.ovnj.lb.ApplyOption;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code --adopt} option of {@code reconcile} and {@code diff}: the load balancers of another
 * owner, or of none, that the file's specs may take over in place (see {@link Adoption}); without
 * it such a row is a conflict, as always.
 */
final class AdoptOption {

    @Option(names = "--adopt", paramLabel = "SELECTOR",
            description = "Take over in place (same row, ownership rewritten, VIPs changed only where they differ, attachments kept)"
                    + " the load balancers of another owner or of none whose name or VIP a spec claims, when this names them:"
                    + " owner:NAME (rows whose external_ids:ovnj.owner is NAME, or without one whose vendor is NAME;"
                    + " owner:kube-ovn and owner:kube-dc cover Kube-OVN's rows), unowned (rows without ovnj.owner), or a row's"
                    + " name or UUID; repeatable or comma-separated. diff lists each as an '& adopt' line first."
                    + " A row that also serves VIPs the spec does not declare is split: only the spec's VIPs move ('& split').")
    private List<String> selectors = new ArrayList<>();

    /**
     * The options of an apply or a plan.
     *
     * @param allowMassDelete whether {@link ApplyOption#ALLOW_MASS_DELETE} is one of them
     * @return the options
     * @throws CliFailure naming a malformed selector
     */
    ApplyOption[] with(boolean allowMassDelete) {
        List<ApplyOption> out = new ArrayList<>();
        if (allowMassDelete) {
            out.add(ApplyOption.ALLOW_MASS_DELETE);
        }
        if (!selectors.isEmpty()) {
            try {
                out.add(Adoption.parse(selectors));
            } catch (IllegalArgumentException e) {
                throw new CliFailure("--adopt: " + e.getMessage(), e);
            }
        }
        return out.toArray(ApplyOption[]::new);
    }
}
