import {
  Activity,
  Award,
  BarChart3,
  BookOpen,
  Bookmark,
  Clock,
  Download,
  Eye,
  Flame,
  GitFork,
  Hash,
  Heart,
  MessageSquare,
  Network,
  Percent,
  Quote,
  Share2,
  Star,
  ThumbsUp,
  TrendingUp,
  Trophy,
  Users,
  Zap,
  type LucideIcon,
} from 'lucide-react';

/**
 * Lucide icons by their kebab-case name (the names the catalog stores). Only these are bundled;
 * an unknown or null name renders the default icon.
 */
const ICONS: Record<string, LucideIcon> = {
  quote: Quote,
  download: Download,
  'share-2': Share2,
  bookmark: Bookmark,
  heart: Heart,
  'message-square': MessageSquare,
  flame: Flame,
  trophy: Trophy,
  hash: Hash,
  percent: Percent,
  clock: Clock,
  'book-open': BookOpen,
  network: Network,
  'git-fork': GitFork,
  star: Star,
  eye: Eye,
  'thumbs-up': ThumbsUp,
  'trending-up': TrendingUp,
  award: Award,
  users: Users,
  zap: Zap,
  activity: Activity,
  'bar-chart-3': BarChart3,
};
export const DEFAULT_ICON: LucideIcon = BarChart3;

export function MetricIcon({ name, size = 16 }: { name: string | null | undefined; size?: number }) {
  const known = name && ICONS[name] ? name : null;
  const Icon = known ? ICONS[known]! : DEFAULT_ICON;
  // data-icon names what is drawn: the fallback says "default", whatever was asked for
  return <Icon size={size} aria-hidden="true" data-icon={known ?? 'default'} />;
}
