// The link model of a GPU pair from NVML's facts: NVLink straight to the peer, through NVSwitch,
// PCIe, or unknown; and the per-direction peak each implies.
#include <gtest/gtest.h>

#include "fixtures/harness/p2p_links.hpp"

namespace archbench {
namespace {

const PciAddress kPeer{0, 0x1b, 0}, kOther{0, 0x2c, 0};

LinkFacts facts_with(std::vector<NvlinkEnd> links, double speed_mbps) {
  LinkFacts f;
  f.nvml = true;
  f.active_nvlinks = std::move(links);
  f.nvlink_speed_mbps = speed_mbps;
  f.pcie_gen = 5;
  f.pcie_width = 16;
  return f;
}

TEST(P2pLinks, DirectNvlinksToThePeerAreCountedAndOthersIgnored) {
  // Four links to the peer, two to another GPU (a hybrid cube mesh), 25 GB/s each.
  std::vector<NvlinkEnd> links(4, NvlinkEnd{kPeer, NvlinkRemoteType::gpu});
  links.insert(links.end(), 2, NvlinkEnd{kOther, NvlinkRemoteType::gpu});
  const LinkModel m = model_link(facts_with(links, 25000), kPeer);
  EXPECT_EQ(m.type, LinkType::nvlink);
  EXPECT_EQ(m.links, 4);
  ASSERT_TRUE(m.peak_bytes_per_second.has_value());
  EXPECT_DOUBLE_EQ(*m.peak_bytes_per_second, 4 * 25e9);
}

TEST(P2pLinks, NvswitchCarriesEveryActiveLinkWhenNvmlSaysP2pOverNvlinkWorks) {
  // An HGX H100/H200 board: 18 links to the switches.
  LinkFacts f = facts_with(std::vector<NvlinkEnd>(18, NvlinkEnd{{0, 0x90, 0}, NvlinkRemoteType::nvswitch}), 25000);
  f.nvlink_p2p_status = 0;
  const LinkModel m = model_link(f, kPeer);
  EXPECT_EQ(m.type, LinkType::nvswitch);
  EXPECT_EQ(m.links, 18);
  EXPECT_DOUBLE_EQ(*m.peak_bytes_per_second, 450e9);
  // Without NVML's word that NVLink P2P works for the pair, the switch is not assumed: PCIe.
  f.nvlink_p2p_status = 5;
  EXPECT_EQ(model_link(f, kPeer).type, LinkType::pcie);
}

TEST(P2pLinks, PerLinkSpeedsAreSummedAndTheCommonSpeedStandsInForAnUnknownOne) {
  // H200 on NVSwitch, as its driver reports it: 26562 MB/s per link, no common speed.
  std::vector<NvlinkEnd> links(18, NvlinkEnd{{0, 0x90, 0}, NvlinkRemoteType::nvswitch, 26562});
  LinkFacts f = facts_with(links, 0);
  f.nvlink_p2p_status = 0;
  EXPECT_DOUBLE_EQ(*model_link(f, kPeer).peak_bytes_per_second, 18 * 26562e6);  // 478 GB/s
  f.active_nvlinks[17].speed_mbps = 0;
  EXPECT_FALSE(model_link(f, kPeer).peak_bytes_per_second.has_value()) << "one link of unknown speed: no peak";
  f.nvlink_speed_mbps = 25000;
  EXPECT_DOUBLE_EQ(*model_link(f, kPeer).peak_bytes_per_second, 17 * 26562e6 + 25000e6);
}

TEST(P2pLinks, PcieWhenNoNvlinkReachesThePeer) {
  const LinkModel m = model_link(facts_with({NvlinkEnd{kOther, NvlinkRemoteType::gpu}}, 25000), kPeer);
  EXPECT_EQ(m.type, LinkType::pcie);
  EXPECT_EQ(m.links, 0);
  ASSERT_TRUE(m.peak_bytes_per_second.has_value());
  EXPECT_NEAR(*m.peak_bytes_per_second, 16 * 32e9 * 128 / 130 / 8, 1);  // gen5 x16: about 63 GB/s
  EXPECT_NE(m.formula.find("gen5 x16"), std::string::npos) << m.formula;
}

TEST(P2pLinks, NoSpeedNoPeakAndNoNvmlUnknown) {
  const LinkModel no_speed = model_link(facts_with({NvlinkEnd{kPeer, NvlinkRemoteType::gpu}}, 0), kPeer);
  EXPECT_EQ(no_speed.type, LinkType::nvlink);
  EXPECT_FALSE(no_speed.peak_bytes_per_second.has_value());
  const LinkModel none = model_link(LinkFacts{}, kPeer);
  EXPECT_EQ(none.type, LinkType::unknown);
  EXPECT_FALSE(none.peak_bytes_per_second.has_value());
  EXPECT_NE(none.formula.find("NVML unavailable"), std::string::npos);
}

TEST(P2pLinks, PcieLaneRatesFollowTheSpecification) {
  EXPECT_DOUBLE_EQ(*pcie_lane_bytes_per_second(1), 250e6);
  EXPECT_DOUBLE_EQ(*pcie_lane_bytes_per_second(2), 500e6);
  EXPECT_NEAR(*pcie_lane_bytes_per_second(3), 984.6e6, 0.1e6);
  EXPECT_NEAR(*pcie_lane_bytes_per_second(4), 1969.2e6, 0.1e6);
  EXPECT_NEAR(*pcie_lane_bytes_per_second(6), 7562.5e6, 0.1e6);
  EXPECT_FALSE(pcie_lane_bytes_per_second(0).has_value());
  EXPECT_FALSE(pcie_lane_bytes_per_second(7).has_value());
}

TEST(P2pLinks, TopologyLevelsAreNamed) {
  EXPECT_STREQ(topology_level_name(10), "single_switch");
  EXPECT_STREQ(topology_level_name(50), "system");
  EXPECT_STREQ(topology_level_name(-1), "unknown");
  EXPECT_STREQ(link_type_name(LinkType::nvswitch), "nvswitch");
}

}  // namespace
}  // namespace archbench
