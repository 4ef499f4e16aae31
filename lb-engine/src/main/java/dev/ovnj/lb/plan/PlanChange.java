package dev.ovnj.lb.plan;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** One step of a {@link LoadBalancerPlan}; each renders as one line of the readable plan. */
public sealed interface PlanChange {

    /**
     * The load balancer row concerned (its {@code name}), or the group for group changes.
     *
     * @return the load balancer row concerned (its {
     */
    String subject();

    /**
     * Insert a new row and attach it where it belongs, in the same transaction.
     *
     * @param row the row to create
     */
    record CreateRow(DesiredRow row) implements PlanChange {
        @Override
        public String subject() {
            return row.rowName();
        }

        @Override
        public String toString() {
            return "+ create " + row.rowName() + " " + row.protocol().wireValue() + " vips " + row.vips();
        }
    }

    /**
     * Take over a row of another owner, or of none, in place (an {@link dev.ovnj.lb.Adoption}
     * allowed it): the same row (UUID, references to it kept) gets the spec's name and ownership
     * keys, guarded on what the plan read; the changes after it in the plan make its VIPs and
     * attachments the spec's, in the same transaction.
     *
     * @param uuid the row
     * @param rowName the name it gets (the spec's row name)
     * @param formerName its name before
     * @param formerOwner its {@code ovnj.owner} before, empty when it had none
     * @param externalIds its {@code external_ids} after (the ownership keys; the former keys are dropped)
     */
    record Adopt(UUID uuid, String rowName, String formerName, Optional<String> formerOwner, Map<String, String> externalIds)
            implements PlanChange {
        /**
         * Copies the map.
         *
         * @param uuid the row
         * @param rowName the name it gets
         * @param formerName its name before
         * @param formerOwner its {@code ovnj.owner} before
         * @param externalIds its {@code external_ids} after
         */
        public Adopt {
            externalIds = Map.copyOf(externalIds);
        }

        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "& adopt load balancer " + formerName + " (uuid " + uuid + ", "
                    + formerOwner.map(o -> "owner " + o).orElse("no ovnj.owner") + ") as " + rowName;
        }
    }

    /**
     * Take the spec's VIPs out of a row of another owner, or of none, that also serves VIPs the
     * spec does not declare (an {@link dev.ovnj.lb.Adoption} covering it allowed it; Kube-OVN's
     * per-VPC rows such as {@code vpc-NAME-tcp-load} are such rows): in the transaction that
     * creates the spec's own row with those VIPs, so that no VIP is ever absent; the row keeps its
     * UUID, its other VIPs and its references. Guarded on the row's columns as the plan read them.
     *
     * @param uuid the shared row
     * @param formerName its name (it keeps it)
     * @param rowName the spec's row the VIPs move to
     * @param keys the VIP keys taken out, as the shared row spells them
     */
    record Split(UUID uuid, String formerName, String rowName, Set<String> keys) implements PlanChange {
        /**
         * Copies the set.
         *
         * @param uuid the shared row
         * @param formerName its name
         * @param rowName the spec's row the VIPs move to
         * @param keys the VIP keys taken out
         */
        public Split {
            keys = Set.copyOf(keys);
        }

        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "& split load balancer " + formerName + " (uuid " + uuid + "): " + String.join(", ", new java.util.TreeSet<>(keys))
                    + " move to " + rowName;
        }
    }

    /**
     * Move the claim of an adopted VIP's address ({@code ovnj.eip.<address>} in a router port's
     * {@code external_ids}) to the adopter's claim owner, in the adoption's transaction.
     *
     * @param port the router port
     * @param portName its name
     * @param rowName the adopted row's new name
     * @param key the claim's key
     * @param from the former claim owner
     * @param to the new claim owner
     */
    record MoveClaim(UUID port, String portName, String rowName, String key, String from, String to) implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "& move claim " + key + " on port " + portName + " from " + from + " to " + to;
        }
    }

    /**
     * Change only the VIP keys that differ: delete stale keys, then insert new values (a map
     * insert never overwrites, so a changed key is deleted first).
     *
     * @param uuid the row
     * @param rowName its name
     * @param deleteKeys keys to remove (changed or gone)
     * @param insert keys to add with their backends (changed or new)
     */
    record UpdateVips(UUID uuid, String rowName, Set<String> deleteKeys, Map<String, String> insert) implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("~ " + rowName + " vips:");
            deleteKeys.stream().sorted().forEach(k -> sb.append(insert.containsKey(k) ? "" : " -" + k));
            insert.forEach((k, v) -> sb.append(deleteKeys.contains(k) ? " ~" : " +").append(k).append("=").append(v));
            return sb.toString();
        }
    }

    /**
     * Overwrite whole columns of an owned row (options, protocol, selection fields, external ids, name).
     *
     * @param uuid the row
     * @param rowName its name
     * @param columns column to new value, in the untyped representation
     */
    record SetColumns(UUID uuid, String rowName, Map<String, Object> columns) implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "~ " + rowName + " set " + columns;
        }
    }

    /**
     * Add an existing row to a router's, switch's or group's {@code load_balancer}.
     *
     * @param target kind of target
     * @param targetName its name
     * @param targetUuid its row
     * @param uuid the load balancer
     * @param rowName the load balancer's name
     */
    record Attach(Target target, String targetName, UUID targetUuid, UUID uuid, String rowName) implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "+ attach " + rowName + " to " + target.word() + " " + targetName;
        }
    }

    /**
     * Remove an owned row from a router's, switch's or group's {@code load_balancer}.
     *
     * @param target kind of target
     * @param targetName its name
     * @param targetUuid its row
     * @param uuid the load balancer
     * @param rowName the load balancer's name
     */
    record Detach(Target target, String targetName, UUID targetUuid, UUID uuid, String rowName) implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "- detach " + rowName + " from " + target.word() + " " + targetName;
        }
    }

    /**
     * Create a load balancer group, marked as created by ovnj in {@code NB_Global external_ids:ovnj.group.<name>}
     * (deleted by the engine once no load balancer uses it; groups created by others are never deleted).
     *
     * @param name the group's name
     */
    record CreateGroup(String name) implements PlanChange {
        @Override
        public String subject() {
            return name;
        }

        @Override
        public String toString() {
            return "+ create group " + name;
        }
    }

    /**
     * Add a group to a router's or switch's {@code load_balancer_group}.
     *
     * @param target router or switch
     * @param targetName its name
     * @param targetUuid its row
     * @param group the group's name
     * @param groupUuid the group's row
     */
    record AttachGroup(Target target, String targetName, UUID targetUuid, String group, UUID groupUuid) implements PlanChange {
        @Override
        public String subject() {
            return group;
        }

        @Override
        public String toString() {
            return "+ attach group " + group + " to " + target.word() + " " + targetName;
        }
    }

    /**
     * Delete an owned row no spec wants any more; weak references to it vanish with it.
     *
     * @param uuid the row
     * @param rowName its name
     */
    record DeleteRow(UUID uuid, String rowName) implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "- delete " + rowName;
        }
    }

    /**
     * Add a health check to an existing owned row: insert the {@code Load_Balancer_Health_Check} and
     * reference it from {@code health_check} in the same transaction (the table is not a root).
     *
     * @param uuid the load balancer
     * @param rowName its name
     * @param vip the checked VIP key
     * @param options the health check's options
     * @param externalIds the health check's ownership keys
     */
    record CreateHealthCheck(UUID uuid, String rowName, String vip, Map<String, String> options, Map<String, String> externalIds)
            implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "+ " + rowName + " health check " + vip + " " + options;
        }
    }

    /**
     * Overwrite a health check's options and ownership keys.
     *
     * @param healthCheck the health check row
     * @param rowName the load balancer's name
     * @param vip the checked VIP key
     * @param options the options
     * @param externalIds the ownership keys
     */
    record UpdateHealthCheck(UUID healthCheck, String rowName, String vip, Map<String, String> options,
                             Map<String, String> externalIds) implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "~ " + rowName + " health check " + vip + " " + options;
        }
    }

    /**
     * Drop a health check from an owned row's {@code health_check}; the server then deletes the
     * unreferenced row.
     *
     * @param uuid the load balancer
     * @param healthCheck the health check row
     * @param rowName the load balancer's name
     * @param vip the VIP it checked
     */
    record RemoveHealthCheck(UUID uuid, UUID healthCheck, String rowName, String vip) implements PlanChange {
        @Override
        public String subject() {
            return rowName;
        }

        @Override
        public String toString() {
            return "- " + rowName + " health check " + vip;
        }
    }

    /**
     * Insert a {@code Logical_Router_Policy} of a spec's source ranges and add it to the router's
     * {@code policies}, in the transaction of the spec's load balancer changes (so a VIP is never
     * served without its policies).
     *
     * @param routerName the router's name
     * @param routerUuid the router's row
     * @param spec the spec's name
     * @param policy the policy
     */
    record CreatePolicy(String routerName, UUID routerUuid, String spec, DesiredPolicy policy) implements PlanChange {
        @Override
        public String subject() {
            return spec + "/" + policy.key();
        }

        @Override
        public String toString() {
            return "+ policy " + subject() + " on router " + routerName + ": " + policy.priority() + " " + policy.match() + " "
                    + policy.action();
        }
    }

    /**
     * Overwrite an owned policy's priority, match, action and {@code external_ids}.
     *
     * @param uuid the policy row
     * @param routerName the router's name
     * @param spec the spec's name
     * @param policy what the row must hold
     */
    record UpdatePolicy(UUID uuid, String routerName, String spec, DesiredPolicy policy) implements PlanChange {
        @Override
        public String subject() {
            return spec + "/" + policy.key();
        }

        @Override
        public String toString() {
            return "~ policy " + subject() + " on router " + routerName + ": " + policy.priority() + " " + policy.match() + " "
                    + policy.action();
        }
    }

    /**
     * Remove an owned policy from its router's {@code policies}; the server then deletes the
     * unreferenced row.
     *
     * @param uuid the policy row
     * @param routerName the router's name
     * @param routerUuid the router's row
     * @param spec the spec's name
     * @param key which policy of the spec it was
     */
    record DeletePolicy(UUID uuid, String routerName, UUID routerUuid, String spec, String key) implements PlanChange {
        @Override
        public String subject() {
            return spec + "/" + key;
        }

        @Override
        public String toString() {
            return "- policy " + subject() + " on router " + routerName;
        }
    }
}
