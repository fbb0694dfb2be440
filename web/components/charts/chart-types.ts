export interface ChartPoint {
  label: string;
  speed: number;
  distance: number;
}
