package dev.ovnj.ovsdb.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JavaNamesTest {

    @Test
    void tableNamesBecomeUpperCamelCaseWithAbbreviationsCapitalizedOnce() {
        assertThat(JavaNames.typeName("Load_Balancer")).isEqualTo("LoadBalancer");
        assertThat(JavaNames.typeName("NAT")).isEqualTo("Nat");
        assertThat(JavaNames.typeName("ACL")).isEqualTo("Acl");
        assertThat(JavaNames.typeName("HA_Chassis_Group")).isEqualTo("HaChassisGroup");
        assertThat(JavaNames.typeName("Logical_Router_Port")).isEqualTo("LogicalRouterPort");
        assertThat(JavaNames.typeName("QoS")).isEqualTo("QoS");
        assertThat(JavaNames.typeName("OVN_Northbound")).isEqualTo("OvnNorthbound");
    }

    @Test
    void columnNamesBecomeLowerCamelCaseAccessorsAndUpperSnakeConstants() {
        assertThat(JavaNames.memberName("external_ids")).isEqualTo("externalIds");
        assertThat(JavaNames.memberName("ipv6_ra_configs")).isEqualTo("ipv6RaConfigs");
        assertThat(JavaNames.memberName("IPv6_prefix")).isEqualTo("ipv6Prefix");
        assertThat(JavaNames.constantName("external_ids")).isEqualTo("EXTERNAL_IDS");
    }

    @Test
    void keywordsAndReservedNamesAreEscaped() {
        assertThat(JavaNames.memberName("class")).isEqualTo("class_");
        assertThat(JavaNames.memberName("default")).isEqualTo("default_");
        assertThat(JavaNames.memberName("uuid")).isEqualTo("uuid_");
        assertThat(JavaNames.memberName("from")).isEqualTo("from_");
        assertThat(JavaNames.constantName("table")).isEqualTo("TABLE_");
        assertThat(JavaNames.constantName("2nd")).isEqualTo("_2ND");
    }

    @Test
    void wireStringsBecomeEnumConstants() {
        assertThat(JavaNames.enumConstantName("allow-related")).isEqualTo("ALLOW_RELATED");
        assertThat(JavaNames.enumConstantName("dnat_and_snat")).isEqualTo("DNAT_AND_SNAT");
        assertThat(JavaNames.enumConstantName("")).isEqualTo("EMPTY");
        assertThat(JavaNames.enumConstantName("1x")).isEqualTo("_1X");
    }
}
