package dev.ovnj.cli;

import dev.ovnj.kubernetes.BulkAdoption;
import dev.ovnj.kubernetes.ControllerSettings;
import dev.ovnj.lb.Adoption;
import dev.ovnj.ovsdb.client.OvsdbClient;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ovnj kubernetes [controller options] adopt [--dry-run] SELECTOR}: a migration from
 * another tool's load balancers in one step ({@link BulkAdoption}). Lists which Service takes
 * which VIPs of which covered row (adopted whole, or split out of a shared row), then, without
 * {@code --dry-run}, annotates those Services so that the controller carries it out.
 */
@Command(name = "adopt", mixinStandardHelpOptions = true,
        description = "List which Service takes over which load balancer rows the SELECTOR covers (owner:kube-dc, "
                + "owner:kube-ovn, owner:NAME, unowned, a row name or UUID), then annotate the Services "
                + "(ovnj.dev/load-balancer-ips, ovnj.dev/adopt) so that the controller moves them. Run before the controller.")
final class KubernetesAdoptCommand implements Callable<Integer> {
    @ParentCommand
    private KubernetesCommand parent;

    @Option(names = "--dry-run", description = "Only list what would move; change nothing.")
    private boolean dryRun;

    @Parameters(arity = "1..*", paramLabel = "SELECTOR", description = "What to adopt, as ovnj.dev/adopt reads it.")
    private List<String> selectors;

    @Override
    public Integer call() throws Exception {
        ControllerSettings settings = parent.settings();
        Adoption adoption;
        try {
            adoption = Adoption.parse(selectors);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage(), e);
        }
        try (OvsdbClient nb = parent.database().connect();
             KubernetesClient kube = new KubernetesClientBuilder().withConfig(parent.kubeConfig()).build()) {
            BulkAdoption bulk = new BulkAdoption(kube, nb, settings);
            BulkAdoption.Plan plan = bulk.plan(adoption);
            plan.lines().forEach(System.out::println);
            if (plan.unmatched().isPresent()) {
                return 1;
            }
            if (dryRun) {
                System.out.println("dry run: " + plan.moves().size() + " Services would be annotated; nothing changed");
                return 0;
            }
            List<String> done = bulk.apply(adoption, plan);
            System.out.println("annotated " + done.size() + " Services; the controller (ovnj kubernetes) now moves their rows");
            return 0;
        }
    }
}
