// er_cp: copy experiments and experiment groups (seed-spec §11; rules in exptools/utilities.h).
#include "exptools/utilities.h"

int main(int argc, char** argv) {
  return erkit::exptools::run_transfer(erkit::exptools::TransferMode::Copy, {argv + 1, argv + argc}, stdout, stderr);
}
