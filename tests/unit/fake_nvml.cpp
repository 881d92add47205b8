// A fake libnvidia-ml.so.1 for the health watch's CPU tests (tests/unit/test_health_watch.cpp):
// the NVML calls fixtures/harness/health.cpp makes, answered from a table the test sets through
// the fake_nvml_* functions (found with dlsym on the same library). Declarations as nvml.h spells
// them; only what the health watch and Nvml's constructor use.
#include <cstring>
#include <deque>
#include <map>
#include <utility>

namespace {
constexpr int kSuccess = 0, kInvalidArgument = 2, kNotSupported = 3, kNotFound = 6, kTimeout = 10;
struct FieldValue {
  unsigned fieldId, scopeId;
  long long timestamp, latencyUsec;
  int valueType, nvmlReturn;
  union {
    double dVal;
    unsigned long long ullVal;
  } value;
};
struct EventData {
  void* device;
  unsigned long long eventType, eventData;
  unsigned gpuInstanceId, computeInstanceId;
};
struct State {
  std::map<std::pair<unsigned, unsigned>, unsigned long long> fields;  // (field, scope) -> value
  std::map<unsigned, int> refused;                                     // field -> NVML return
  unsigned links = 0;
  unsigned max_gen = 5, max_width = 16, gen = 5, width = 16;
  bool events_refused = false, registered = false;
  std::deque<unsigned long long> xids;
};
State& state() {
  static State s;
  return s;
}
void* const kDevice = reinterpret_cast<void*>(0x1);
void* const kEventSet = reinterpret_cast<void*>(0x2);
}  // namespace

extern "C" {
// The test's controls.
void fake_nvml_reset() { state() = State{}; }
void fake_nvml_set_field(unsigned field, unsigned scope, unsigned long long value) {
  state().fields[{field, scope}] = value;
}
void fake_nvml_refuse_field(unsigned field, int nvml_return) { state().refused[field] = nvml_return; }
void fake_nvml_set_links(unsigned n) { state().links = n; }
void fake_nvml_set_pcie(unsigned max_gen, unsigned max_width, unsigned gen, unsigned width) {
  state().max_gen = max_gen, state().max_width = max_width, state().gen = gen, state().width = width;
}
void fake_nvml_refuse_events() { state().events_refused = true; }
void fake_nvml_post_xid(unsigned long long xid) {
  if (state().registered) state().xids.push_back(xid);
}

// NVML, as the health watch calls it.
int nvmlInit_v2() { return kSuccess; }
int nvmlShutdown() { return kSuccess; }
const char* nvmlErrorString(int r) {
  switch (r) {
    case kSuccess:
      return "Success";
    case kNotSupported:
      return "Not Supported";
    case kNotFound:
      return "Not Found";
    default:
      return "Unknown Error";
  }
}
int nvmlSystemGetDriverVersion(char* buf, unsigned n) {
  std::strncpy(buf, "fake-1.0", n);
  return kSuccess;
}
int nvmlDeviceGetHandleByUUID(const char* uuid, void** device) {
  if (std::strcmp(uuid, "GPU-fake") != 0) return kNotFound;
  *device = kDevice;
  return kSuccess;
}
int nvmlDeviceGetFieldValues(void*, int count, FieldValue* values) {
  for (int i = 0; i < count; ++i) {
    FieldValue& f = values[i];
    const auto refused = state().refused.find(f.fieldId);
    const auto it = state().fields.find({f.fieldId, f.scopeId});
    if (refused != state().refused.end()) {
      f.nvmlReturn = refused->second;
    } else if (it == state().fields.end()) {
      f.nvmlReturn = kNotSupported;
    } else {
      f.nvmlReturn = kSuccess;
      f.valueType = 3;  // NVML_VALUE_TYPE_UNSIGNED_LONG_LONG
      f.value.ullVal = it->second;
    }
  }
  return kSuccess;
}
int nvmlDeviceGetNvLinkState(void*, unsigned link, int* active) {
  if (link >= 18) return kInvalidArgument;
  *active = link < state().links ? 1 : 0;
  return kSuccess;
}
int nvmlDeviceGetMaxPcieLinkGeneration(void*, unsigned* v) { return *v = state().max_gen, kSuccess; }
int nvmlDeviceGetMaxPcieLinkWidth(void*, unsigned* v) { return *v = state().max_width, kSuccess; }
int nvmlDeviceGetCurrPcieLinkGeneration(void*, unsigned* v) { return *v = state().gen, kSuccess; }
int nvmlDeviceGetCurrPcieLinkWidth(void*, unsigned* v) { return *v = state().width, kSuccess; }
int nvmlEventSetCreate(void** set) { return *set = kEventSet, kSuccess; }
int nvmlEventSetFree(void*) { return kSuccess; }
int nvmlDeviceRegisterEvents(void*, unsigned long long, void*) {
  if (state().events_refused) return kNotSupported;
  state().registered = true;
  return kSuccess;
}
int nvmlEventSetWait_v2(void*, EventData* e, unsigned) {
  if (state().xids.empty()) return kTimeout;
  *e = EventData{kDevice, 0x8, state().xids.front(), 0, 0};  // nvmlEventTypeXidCriticalError
  state().xids.pop_front();
  return kSuccess;
}
}
